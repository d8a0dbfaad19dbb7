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
export function costlyPolicy(config: Config): RateLimitPolicy {
  return {
    name: "costly",
    limit: config.rateLimits.costlyPerMinute,
    windowSeconds: 60,
    message: "Too many PDF, export, email and profile requests from this address",
  };
}

/** Resends of an invoice's email (POST /api/invoices/:id/email): 10 per hour per invoice. */
export const invoiceEmailPolicy: RateLimitPolicy = {
  name: "invoice-email",
  limit: 10,
  windowSeconds: 3600,
  message: "Email limit reached for this invoice. At most 10 emails per hour.",
};
