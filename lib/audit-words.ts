import type { UnappliedReason } from "@/lib/domain/unapplied";
import {
  formatFiat,
  formatGrouped,
  PAYMENT_METHOD_LABELS,
  type Pricing,
  pricingCode,
  shortAddress,
} from "@/lib/format";

/**
 * An invoice's audit entry in words (docs/decisions.md, The audit trail in words): one sentence
 * per action, amounts with their unit, the actor named from the owner's side ("you", the API
 * key's name, "the service", "the client"). The invoice page's history and anything else
 * that shows the trail read entries through `auditWords`; an action it does not know reads
 * as a generic sentence, never as the stored JSON. Pure: no React, no I/O.
 */

/** The stored entry (`invoice_audit_logs`, as the owner view serializes it). */
export type AuditEntry = {
  action: string;
  actorWallet: string;
  changes: Record<string, unknown> | null;
};

/** What the words depend on beyond the entry. */
export type AuditContext = {
  /** The invoice's pricing: its own figures (applied amounts, totals) are in its price currency. */
  pricing?: Pricing;
  /** The invoice's client email (where SENT went). */
  clientEmail?: string | null;
  /** The signed-in owner's wallet: their entries read "you". */
  me?: string;
  /** The owner's API keys by prefix: an entry by `key:<prefix>` names the key. */
  keyNames?: Readonly<Record<string, string>>;
  /** The owner's team by wallet (docs/decisions.md, Team access): a member's entries name it. */
  team?: Readonly<Record<string, "accountant" | "member">>;
};

export type AuditWords = {
  /** "Refund of 25.00 USDC sent to GABC…WXYZ". */
  sentence: string;
  /** "you", "your API key “Accounting sync”", "the service", "the client". */
  actor: string;
  /** An edit's fields, one line each ("Due date: 1 Dec 2026 → 15 Dec 2026"). */
  details: string[];
};

const SYSTEM = "SYSTEM";
const ANONYMOUS = "ANONYMOUS";
const KEY = "key:";

/** Who did it, from the owner's side. */
export function actorWords(
  actor: string,
  ctx: Pick<AuditContext, "me" | "keyNames" | "team"> = {},
) {
  if (actor === SYSTEM) return "the service";
  if (actor === ANONYMOUS) return "the client";
  if (actor.startsWith(KEY)) {
    const prefix = actor.slice(KEY.length);
    const name = ctx.keyNames?.[prefix];
    return name ? `your API key “${name}”` : `your API key ${prefix}…`;
  }
  const role = ctx.team?.[actor];
  if (role === "accountant") return `your accountant ${shortAddress(actor)}`;
  if (role === "member") return `team member ${shortAddress(actor)}`;
  if (!ctx.me) return shortAddress(actor); // the session not known yet: the wallet itself
  if (actor === ctx.me) return "you";
  // Any other wallet acting on an invoice is its payer.
  return "the client";
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const isAmount = (v: unknown): v is string => typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v);
const nonZero = (v: unknown): v is string => isAmount(v) && /[1-9]/.test(v);

/** An asset amount, every significant decimal kept: "1,228.6084702 XLM", "50.00 USDC". */
const asset = (amount: string, code: string | null) =>
  code ? `${formatGrouped(amount)} ${code}` : formatGrouped(amount);

/** One of the invoice's own figures: in cents with its price currency, else in its asset. */
function own(amount: string, pricing?: Pricing) {
  if (pricing?.priceCurrency) return formatFiat(amount, pricing.priceCurrency);
  return asset(amount, pricing ? pricingCode(pricing) : null);
}

/** "SOME_ACTION" or "someField" -> "some action" / "some field". */
function words(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase()
    .trim();
}

const capital = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** Why a payment did not count, as the end of "Payment of X received ...". */
function unappliedWhy(reason: UnappliedReason | string | null, issuer: string | null): string {
  switch (reason) {
    case "already_paid":
      return "received after the invoice was paid: not applied";
    case "invoice_cancelled":
      return "received after the invoice was cancelled: not applied";
    case "invoice_not_sent":
      return "received before the invoice was sent: not applied";
    case "wrong_asset":
      return issuer
        ? `received in another asset (issuer ${shortAddress(issuer)}): not applied`
        : "received in another asset: not applied";
    case "unpriced":
      return "received with no quote or price to value it: not applied";
    case "link_parent":
      return "sent to the payment link itself, not to a checkout: not applied";
    case "link_full":
      return "received after the link had every payment it accepts: not applied";
    case "memo_mismatch":
      return "sent to this invoice's address with a memo naming another invoice: not applied";
    default:
      return "received: not applied";
  }
}

/** The fields an edit names, in words. */
const FIELD_WORDS: Record<string, string> = {
  lineItems: "line items",
  dueDate: "due date",
  clientEmail: "client email",
  clientName: "client name",
  clientCompany: "client company",
  clientAddress: "client address",
  clientWallet: "client wallet",
  taxRate: "tax rate",
  taxAmount: "tax",
  invoiceNumber: "invoice number",
  priceCurrency: "price currency",
  currency: "asset",
  paymentTolerance: "payment tolerance",
  deletedAt: "deleted",
};
const fieldWords = (key: string) => FIELD_WORDS[key] ?? words(key);

const AMOUNT_FIELDS = new Set(["total", "subtotal", "taxAmount", "discount", "amountPaid"]);
const DATE_FIELDS = new Set(["dueDate", "deletedAt"]);

function value(key: string, v: unknown, pricing?: Pricing): string {
  if (v === null || v === undefined || v === "") return "none";
  if (AMOUNT_FIELDS.has(key) && isAmount(v)) return own(v, pricing);
  if (DATE_FIELDS.has(key) && typeof v === "string" && !Number.isNaN(Date.parse(v))) {
    const d = new Date(v);
    const months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");
    return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  }
  if (typeof v === "string") return v.length > 80 ? `${v.slice(0, 77)}…` : v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return "changed";
}

/** An edit's lines: "Title: Logo → Logo and icons"; line items and reminders only "changed". */
function editLines(changes: Record<string, unknown>, pricing?: Pricing): string[] {
  return Object.entries(changes)
    .filter(([key]) => key !== "status")
    .map(([key, v]) => {
      const label = capital(fieldWords(key));
      if (key === "lineItems" || key === "reminders") return `${label} changed`;
      if (v && typeof v === "object" && "to" in v) {
        const { from, to } = v as { from: unknown; to: unknown };
        return from === null || from === undefined
          ? `${label}: ${value(key, to, pricing)}`
          : `${label}: ${value(key, from, pricing)} → ${value(key, to, pricing)}`;
      }
      return `${label}: ${value(key, v, pricing)}`;
    });
}

/** "a, b and c". */
function list(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

const statusTo = (c: Record<string, unknown>) =>
  (c.status as { to?: unknown } | undefined)?.to ?? null;

/**
 * A payer starting to pay (a pay-intent moving the invoice to PROCESSING, audit UPDATED) reads
 * "Payment started", not "Updated" (docs/decisions.md, Lifecycle, What the screens show).
 */
export const isPaymentStart = (e: Pick<AuditEntry, "action" | "changes">) =>
  e.action === "UPDATED" && statusTo(e.changes ?? {}) === "PROCESSING";

/** A payment entry (PAID, PAYMENT_RECEIVED): what counted, then what did not. */
function paymentSentence(c: Record<string, unknown>, paid: boolean, pricing?: Pricing): string {
  const parts: string[] = [];
  if (nonZero(c.amount)) {
    const received = `Payment of ${own(c.amount, pricing)} received`;
    parts.push(paid ? `${received}: invoice paid in full` : received);
  } else if (paid) {
    parts.push("Invoice paid in full");
  }
  if (nonZero(c.unappliedAmount) || (c.reason && !nonZero(c.amount))) {
    const amount = nonZero(c.unappliedAmount) ? asset(c.unappliedAmount, str(c.asset)) : null;
    const why = unappliedWhy(str(c.reason), str(c.assetIssuer));
    parts.push(
      parts.length === 0
        ? amount
          ? `Payment of ${amount} ${why}`
          : `Payment ${why}`
        : `${amount ?? "another payment"} in the same transaction ${why}`,
    );
  }
  if (parts.length === 0) return "Payment received";
  return parts.join("; ");
}

function sentenceOf(e: AuditEntry, ctx: AuditContext): { sentence: string; details: string[] } {
  const c = e.changes ?? {};
  const pricing = ctx.pricing;
  const only = (sentence: string) => ({ sentence, details: [] });
  switch (e.action) {
    case "CREATED":
      if (c.kind === "LINK") {
        return only(
          c.parentLinkId ? "Checkout opened from a payment link" : "Payment link created",
        );
      }
      return only(statusTo(c) === "DRAFT" ? "Invoice created as a draft" : "Invoice created");
    case "UPDATED": {
      if (isPaymentStart(e)) {
        const quote = c.quote as { amount?: unknown; asset?: unknown } | undefined;
        if (quote && isAmount(quote.amount)) {
          return only(`Payment started (quote ${asset(quote.amount, str(quote.asset))})`);
        }
        if (isAmount(c.amount)) return only(`Payment started (${asset(c.amount, str(c.asset))})`);
        return only("Payment started");
      }
      const fields = Object.keys(c).filter((k) => k !== "status");
      if (fields.length === 0) return only("Invoice updated");
      return {
        sentence: `Invoice edited: ${list(fields.map(fieldWords))}`,
        details: editLines(c, pricing),
      };
    }
    case "SENT": {
      const to = ctx.clientEmail;
      return only(to ? `Invoice sent to ${to}` : "Invoice sent");
    }
    case "PAID":
      return only(paymentSentence(c, true, pricing) + byHand(c));
    case "PAYMENT_RECEIVED":
      return only(paymentSentence(c, false, pricing) + byHand(c));
    case "PAYMENT_VOIDED": {
      // A payment recorded by hand, withdrawn (lib/services/payments/manual-payment.ts).
      const amount = isAmount(c.amount) ? ` of ${own(c.amount, pricing)}` : "";
      return only(`Payment${amount}${byHand(c)} voided: no longer counted`);
    }
    case "REFUNDED": {
      const amount = isAmount(c.amount) ? asset(c.amount, str(c.asset)) : null;
      const to = str(c.destination);
      let sentence = `Refund${amount ? ` of ${amount}` : ""} sent${to ? ` to ${shortAddress(to)}` : ""}`;
      const status = c.refundStatus as { from?: unknown } | undefined;
      if (status?.from === "EXPIRED" || status?.from === "FAILED") {
        sentence += ", after it had been given up";
      }
      if (nonZero(c.beyondReceived)) {
        sentence += ` (${asset(c.beyondReceived, str(c.asset))} beyond what the payment had left)`;
      }
      return only(sentence);
    }
    case "FAILED": {
      const code = str(c.ledgerCode);
      return only(
        code ? `Payment failed: the ledger refused it (${code})` : "Payment failed on the ledger",
      );
    }
    case "EXPIRED":
      return only("Invoice expired: its due date passed");
    case "CANCELLED": {
      const reason = str(c.reason);
      return only(reason ? `Invoice cancelled: “${reason}”` : "Invoice cancelled");
    }
    case "DELETED":
      return only("Draft deleted");
    case "CREDITED": {
      // A credit note (docs/decisions.md, Credit notes): its number and what it credited.
      const note = (c.creditNote ?? {}) as { number?: unknown; total?: unknown };
      const number = str(note.number);
      const amount = isAmount(note.total) ? ` of ${own(note.total, pricing)}` : "";
      return only(`Credit note${number ? ` ${number}` : ""}${amount} issued`);
    }
    default: {
      // An action this page does not know yet: its name in words, and the fields it changed.
      const fields = Object.keys(c);
      const what = capital(words(e.action)) || "Change";
      return only(
        fields.length > 0
          ? `${what} recorded: ${list(fields.map(fieldWords))}`
          : `${what} recorded`,
      );
    }
  }
}

/** " (bank transfer · ref SEPA 114)" for a payment received outside Stellar, else "". */
function byHand(c: Record<string, unknown>): string {
  const method = str(c.method);
  if (!method || method === "stellar") return "";
  const label = (PAYMENT_METHOD_LABELS[method] ?? method).toLowerCase();
  const reference = str(c.reference);
  return ` (${label}${reference ? ` · ref ${reference}` : ""})`;
}

/** An audit entry in words: the sentence, who did it, and an edit's field lines. */
export function auditWords(e: AuditEntry, ctx: AuditContext = {}): AuditWords {
  return { ...sentenceOf(e, ctx), actor: actorWords(e.actorWallet, ctx) };
}

/** A short label per action (the dashboard's activity feed). */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  CREATED: "Created",
  UPDATED: "Updated",
  SENT: "Sent",
  PAID: "Paid",
  EXPIRED: "Expired",
  CANCELLED: "Cancelled",
  DELETED: "Deleted",
  FAILED: "Payment failed",
  PAYMENT_RECEIVED: "Payment received",
  REFUNDED: "Refunded",
  PAYMENT_VOIDED: "Payment voided",
  CREDITED: "Credited",
};
