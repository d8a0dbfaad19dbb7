import type { Config } from "@/lib/config";
import type { RateLimitPolicy } from "./types";

/** Every limit (docs/decisions.md, Limits) lives here; endpoints refer to them by name. */
export function globalPolicy(perMinute: number): RateLimitPolicy {
  return { name: "global", limit: perMinute, windowSeconds: 60, message: "Too many requests" };
}

export const authFailurePolicy: RateLimitPolicy = {
  // Failed sign-ins and bad tokens count against the caller's IP too (docs/decisions.md, Limits).
  name: "auth-fail",
  limit: 30,
  windowSeconds: 60,
  message: "Too many requests",
};

/** The subject a wallet's limits are counted under (the API and the jobs acting for it). */
export const walletSubject = (wallet: string) => `w:${wallet}`;

export function invoiceCreatePolicy(config: Config): RateLimitPolicy {
  return {
    name: "invoice-create",
    limit: config.rateLimits.invoicesPerHour,
    windowSeconds: 3600,
    message: "Invoice creation limit reached. Maximum 20 invoices per hour per wallet.",
    // Rejected creates do not use up the limit (docs/decisions.md, Limits).
    successesOnly: true,
  };
}

export function linkCreatePolicy(config: Config): RateLimitPolicy {
  return {
    name: "link-create",
    limit: config.rateLimits.linksPerHour,
    windowSeconds: 3600,
    message: "Payment link creation limit reached. Maximum 60 links per hour per wallet.",
    // Rejected creates do not use up the limit (docs/decisions.md, Limits).
    successesOnly: true,
  };
}

export function payIntentPolicy(config: Config): RateLimitPolicy {
  return {
    name: "pay-intent",
    limit: config.rateLimits.payIntentPer5Minutes,
    windowSeconds: 300,
    message: "Too many requests",
  };
}

/** A payer's checkout of a reusable link: public, so per IP, as many as pay-intents. */
export function linkCheckoutPolicy(config: Config): RateLimitPolicy {
  return {
    name: "link-checkout",
    limit: config.rateLimits.payIntentPer5Minutes,
    windowSeconds: 300,
    message: "Too many requests",
  };
}

/** A client's accept or decline of a quote: public, so per IP, as many as pay-intents. */
export function quoteAnswerPolicy(config: Config): RateLimitPolicy {
  return {
    name: "quote-answer",
    limit: config.rateLimits.payIntentPer5Minutes,
    windowSeconds: 300,
    message: "Too many requests",
  };
}

/**
 * Places of limited payment links (docs/decisions.md, Payment links, Places): a payer's
 * pay-intent with a sender holds one; one IP may take this many in 30 minutes in all, and
 * `linkHoldPerLinkPolicy`'s on any one link.
 */
export const LINK_HOLDS_MESSAGE =
  "Too many payment link places held from this address. Try again later.";
export const LINK_HOLDS_PER_LINK_MESSAGE =
  "Too many places of this payment link held from this address. Try again later.";

export function linkHoldPolicy(config: Config): RateLimitPolicy {
  return {
    name: "link-hold",
    limit: config.rateLimits.linkHoldsPer30Minutes,
    windowSeconds: 1800,
    message: LINK_HOLDS_MESSAGE,
  };
}

export function linkHoldPerLinkPolicy(config: Config): RateLimitPolicy {
  return {
    name: "link-hold-link",
    limit: config.rateLimits.linkHoldsPerLinkPer30Minutes,
    windowSeconds: 1800,
    message: LINK_HOLDS_PER_LINK_MESSAGE,
  };
}

export function pricePolicy(config: Config): RateLimitPolicy {
  return {
    name: "price",
    limit: config.rateLimits.pricePerMinute,
    windowSeconds: 60,
    message: "Too many price requests",
  };
}

/**
 * The operations that cost the server most (a PDF rendered, a CSV export streamed, an email
 * with its PDF, a profile with its logo checked): one budget per client IP across all of
 * them and every wallet signed in from it, on top of each wallet's global limit. Sign-in needs
 * no funded account, so without it one address could spend ~50 wallets' budgets a minute.
 */
/** The costly budget's 429 message (a route that counts it only for some answers declares it). */
export const COSTLY_MESSAGE = "Too many PDF, export, email and profile requests from this address";

export function costlyPolicy(config: Config): RateLimitPolicy {
  return {
    name: "costly",
    limit: config.rateLimits.costlyPerMinute,
    windowSeconds: 60,
    message: COSTLY_MESSAGE,
  };
}

/** Resends of an invoice's email (POST /api/invoices/:id/email): 10 per hour per invoice. */
export const invoiceEmailPolicy: RateLimitPolicy = {
  name: "invoice-email",
  limit: 10,
  windowSeconds: 3600,
  message: "Email limit reached for this invoice. At most 10 emails per hour.",
};

/**
 * Test events of one webhook endpoint (POST /api/webhooks/:id/test): 5 per minute per
 * endpoint, counted on the outbox under the endpoint's row lock (lib/webhooks/test-event.ts).
 */
export const webhookTestPolicy: RateLimitPolicy = {
  name: "webhook-test",
  limit: 5,
  windowSeconds: 60,
  message: "Test event limit reached for this webhook. At most 5 per minute.",
};

/**
 * Client portal sign-in (POST /api/portal/link, POST /api/portal/wallet-session): 10 per 15
 * minutes per IP address. The per-address budget of the emails themselves is counted on the
 * links (lib/services/portal/link.ts) and refuses quietly, so it tells no address apart.
 */
export const PORTAL_SIGN_IN_LIMITED =
  "Too many sign-in requests from this address. Try again later.";

export function portalSignInPolicy(config: Config): RateLimitPolicy {
  return {
    name: "portal-sign-in",
    limit: config.rateLimits.portalSignInPer15Minutes,
    windowSeconds: 900,
    message: PORTAL_SIGN_IN_LIMITED,
  };
}
