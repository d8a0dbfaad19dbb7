import { BusinessRuleError } from "./errors";

// The invoice lifecycle (docs/decisions.md "Lifecycle"). TRANSITIONS below is the one
// table of moves: which trigger may move an invoice from which status, to what, and which
// audit action and outbox event record it. Services never write a status themselves:
// applyTransition (lib/services/invoices/lifecycle.ts) reads this table, and the status
// lists (payable, editable...) are derived from it.

export const INVOICE_STATUSES = [
  "DRAFT",
  "PENDING",
  "PROCESSING",
  "PAID",
  "FAILED",
  "EXPIRED",
  "CANCELLED",
] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_TRIGGERS = [
  "update", // PATCH /api/invoices/:id
  "delete", // DELETE /api/invoices/:id (soft delete)
  "send", // POST /api/invoices/:id/send
  "payIntent", // POST /api/payments/:invoiceId/pay-intent
  "submitFailed", // the ledger rejected a submitted transaction
  "pay", // a payment completed the total (submit, confirm or watcher)
  "receive", // a payment was recorded that leaves the status as it is (partial or unapplied)
  "refund", // a refund of a recorded payment reached the payer
  "expire", // the due date has ended (expiry job)
  "cancel", // POST /api/invoices/:id/cancel
  "voidPayment", // DELETE /api/invoices/:id/payments/:paymentId (a payment recorded by hand)
  "editLink", // PATCH /api/links/:id, deactivate, reactivate (the link's own fields only)
  "credit", // POST /api/invoices/:id/credit-notes, or a cancel of a sent invoice
] as const;
export type InvoiceTrigger = (typeof INVOICE_TRIGGERS)[number];

/** What an audit entry records (`invoice_audit_logs.action`), and which move writes it. */
export const AUDIT_ACTIONS = [
  "CREATED", // creation (an invoice, or a payment link)
  "UPDATED", // update, or payIntent moving the invoice to PROCESSING
  "SENT", // send
  "PAID", // pay
  "EXPIRED", // expire
  "CANCELLED", // cancel
  "DELETED", // delete
  "FAILED", // submitFailed
  "PAYMENT_RECEIVED", // receive: a partial or unapplied payment
  "REFUNDED", // refund
  "PAYMENT_VOIDED", // voidPayment: a payment recorded by hand was withdrawn
  "CREDITED", // credit: a credit note was issued
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Outbox event types, which webhook subscriptions choose from (see eventsFor below). */
export const EVENT_TYPES = [
  "invoice.created", // creation of an invoice
  "invoice.sent", // send
  "invoice.paid", // pay
  "invoice.expired", // expire (invoices only)
  "invoice.cancelled", // cancel
  "payment.confirmed", // pay and receive: each applied payment recorded
  "payment.unapplied", // pay and receive: each payment recorded that does not count
  "payment.refunded", // refund
  "payment.voided", // voidPayment
  "link.created", // creation of a payment link
  "link.paid", // pay, for a payment link
  "credit_note.created", // credit
  // Quotes (lib/domain/quote-state.ts, QUOTE_TRANSITIONS): their own moves write these.
  "quote.sent", // a quote's send
  "quote.accepted", // the client accepts a quote (the invoice made from it is in `invoiceId`)
  "quote.declined", // the client declines a quote
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type TransitionResult = {
  from: InvoiceStatus;
  to: InvoiceStatus;
  /** to !== from; a status change must be recorded with `changes.status`. */
  changed: boolean;
  /** Audit entry to write in the same database transaction, if any. */
  audit: AuditAction | null;
  /** Outbox event to write in the same database transaction, if any. */
  event: EventType | null;
};

type Rejection = "modify" | "send" | "pay" | "cancel" | "credit";

type Outcome =
  /** Allowed: move (possibly to the same status) and record audit/event. */
  | { kind: "move"; to: InvoiceStatus; audit: AuditAction | null; event: EventType | null }
  /** A system trigger with nothing to do from this status: no change, no error. */
  | { kind: "ignore" }
  /** A caller asked for something the status forbids: BusinessRuleError. */
  | { kind: "reject"; rejection: Rejection };

const move = (
  to: InvoiceStatus,
  audit: AuditAction | null = null,
  event: EventType | null = null,
): Outcome => ({ kind: "move", to, audit, event });
const ignore: Outcome = { kind: "ignore" };
const reject = (rejection: Rejection): Outcome => ({ kind: "reject", rejection });

/** Moves allowed from DRAFT only: every other status answers `rejection`. */
const draftOnly = (outcome: Outcome, rejection: Rejection): Record<InvoiceStatus, Outcome> => ({
  DRAFT: outcome,
  PENDING: reject(rejection),
  PROCESSING: reject(rejection),
  PAID: reject(rejection),
  FAILED: reject(rejection),
  EXPIRED: reject(rejection),
  CANCELLED: reject(rejection),
});

/** Allowed from every status, keeping it, with this audit action and no event. */
const keepsStatus = (audit: AuditAction): Record<InvoiceStatus, Outcome> =>
  Object.fromEntries(INVOICE_STATUSES.map((status) => [status, move(status, audit)])) as Record<
    InvoiceStatus,
    Outcome
  >;

/** Allowed from every status, keeping it, with this audit action and event. */
const everyStatus = (audit: AuditAction, event: EventType): Record<InvoiceStatus, Outcome> =>
  Object.fromEntries(
    INVOICE_STATUSES.map((status) => [status, move(status, audit, event)]),
  ) as Record<InvoiceStatus, Outcome>;

// Every (trigger, status) pair is spelled out: the Record types make a missing
// status or trigger a compile error, so a new status cannot be forgotten here.
const TRANSITIONS: Record<InvoiceTrigger, Record<InvoiceStatus, Outcome>> = {
  update: draftOnly(move("DRAFT", "UPDATED"), "modify"),
  // A soft delete keeps the status; only deletedAt changes.
  delete: draftOnly(move("DRAFT", "DELETED"), "modify"),
  send: draftOnly(move("PENDING", "SENT", "invoice.sent"), "send"),
  // PROCESSING stays PROCESSING (a payer may ask again, e.g. after a timeout)
  // and EXPIRED stays EXPIRED: the invoice remains payable, but a pay-intent
  // must not undo the expiry. Only a real status change is audited.
  payIntent: {
    DRAFT: reject("pay"),
    PENDING: move("PROCESSING", "UPDATED"),
    PROCESSING: move("PROCESSING"),
    PAID: reject("pay"),
    FAILED: move("PROCESSING", "UPDATED"),
    EXPIRED: move("EXPIRED"),
    CANCELLED: reject("pay"),
  },
  // Only a PROCESSING invoice can fail. Elsewhere the rejection is news about
  // a transaction that no longer matters (another path paid, the owner
  // cancelled, or the invoice expired), so it is ignored rather than an error.
  submitFailed: {
    DRAFT: ignore,
    PENDING: ignore,
    PROCESSING: move("FAILED", "FAILED"),
    PAID: ignore,
    FAILED: ignore,
    EXPIRED: ignore,
    CANCELLED: ignore,
  },
  // PAID is rejected too: services detect "already paid" before asking.
  pay: {
    DRAFT: reject("pay"),
    PENDING: move("PAID", "PAID", "invoice.paid"),
    PROCESSING: move("PAID", "PAID", "invoice.paid"),
    PAID: reject("pay"),
    FAILED: move("PAID", "PAID", "invoice.paid"),
    EXPIRED: move("PAID", "PAID", "invoice.paid"),
    CANCELLED: reject("pay"),
  },
  // A payment that leaves the status as it is: a partial payment of a payable invoice, or
  // one that cannot apply (docs/decisions.md, Partial payments). Any status, even DRAFT and
  // CANCELLED, records it. "payment.confirmed" here stands for the payment events: one per
  // recorded row, payment.confirmed when applied and payment.unapplied otherwise (eventsFor).
  receive: everyStatus("PAYMENT_RECEIVED", "payment.confirmed"),
  // A refund keeps the status: a PAID invoice stays PAID (docs/decisions.md, Refunds).
  refund: everyStatus("REFUNDED", "payment.refunded"),
  // The expiry job selects with EXPIRABLE_STATUSES; an invoice that moved on
  // meanwhile is simply left alone.
  expire: {
    DRAFT: ignore,
    PENDING: move("EXPIRED", "EXPIRED", "invoice.expired"),
    PROCESSING: move("EXPIRED", "EXPIRED", "invoice.expired"),
    PAID: ignore,
    // A failed attempt must not keep an invoice from expiring (docs/decisions.md, Lifecycle).
    FAILED: move("EXPIRED", "EXPIRED", "invoice.expired"),
    EXPIRED: ignore,
    CANCELLED: ignore,
  },
  // A payment recorded by hand that was a mistake stops counting; the status stays. PAID is
  // final (no move leads out of it), so a payment that completed an invoice cannot be voided
  // (docs/decisions.md, Payments received outside Stellar).
  voidPayment: {
    DRAFT: reject("modify"),
    PENDING: move("PENDING", "PAYMENT_VOIDED", "payment.voided"),
    PROCESSING: move("PROCESSING", "PAYMENT_VOIDED", "payment.voided"),
    PAID: reject("modify"),
    FAILED: move("FAILED", "PAYMENT_VOIDED", "payment.voided"),
    EXPIRED: move("EXPIRED", "PAYMENT_VOIDED", "payment.voided"),
    CANCELLED: move("CANCELLED", "PAYMENT_VOIDED", "payment.voided"),
  },
  cancel: {
    DRAFT: move("CANCELLED", "CANCELLED", "invoice.cancelled"),
    PENDING: move("CANCELLED", "CANCELLED", "invoice.cancelled"),
    PROCESSING: move("CANCELLED", "CANCELLED", "invoice.cancelled"),
    PAID: reject("cancel"),
    FAILED: move("CANCELLED", "CANCELLED", "invoice.cancelled"),
    EXPIRED: move("CANCELLED", "CANCELLED", "invoice.cancelled"),
    CANCELLED: reject("cancel"),
  },
  // The owner's change of a payment link's title, expiry or activity: the status stays, the
  // audit entry records the diff, no event (which links may change: lib/services/links/manage.ts).
  editLink: keepsStatus("UPDATED"),
  // A credit note corrects a sent invoice and keeps its status (docs/decisions.md, Credit
  // notes); a draft is edited instead. What it leaves due is the service's (credit-notes).
  credit: { ...everyStatus("CREDITED", "credit_note.created"), DRAFT: reject("credit") },
};

/**
 * Moves any payer can cause without signing in: a pay-intent and a submit the ledger rejects.
 * Their audit entries are coalesced (one per invoice and action within the window) so that
 * anonymous callers cannot flood an invoice's trail; the status itself always moves
 * (docs/decisions.md, Lifecycle).
 */
export const PAYER_ATTEMPT_TRIGGERS: ReadonlySet<InvoiceTrigger> = new Set([
  "payIntent",
  "submitFailed",
]);
export const PAYER_ATTEMPT_AUDIT_WINDOW_MS = 10 * 60_000;

/** The statuses `trigger` moves from (neither rejected nor ignored), in status order. */
function statusesAllowing(trigger: InvoiceTrigger): readonly InvoiceStatus[] {
  return INVOICE_STATUSES.filter((status) => canTransition(status, trigger));
}

// The status lists the table implies, for SQL filters (`WHERE status IN (...)`) and the UI.
/** PATCH and DELETE are allowed only here. */
export const EDITABLE_STATUSES = statusesAllowing("update");
/** pay-intent, submit, confirm and the watcher accept these; DRAFT must be sent first. */
export const PAYABLE_STATUSES = statusesAllowing("pay");
/** The expiry job moves these to EXPIRED once the due date has ended. */
export const EXPIRABLE_STATUSES = statusesAllowing("expire");
/** The owner may cancel from these. */
export const CANCELLABLE_STATUSES = statusesAllowing("cancel");

/**
 * The message of a refused move. Sending a non-DRAFT invoice follows the pay and cancel
 * pattern and names the current status.
 */
function rejectionMessage(rejection: Rejection, status: InvoiceStatus): string {
  switch (rejection) {
    case "modify":
      return "Only invoices in DRAFT status can be modified";
    case "send":
      return `Invoice cannot be sent. Current status: ${status}`;
    case "pay":
      return `Invoice cannot be paid. Current status: ${status}`;
    case "cancel":
      return `Invoice cannot be cancelled. Current status: ${status}`;
    case "credit":
      return `Only a sent invoice can be credited. Current status: ${status}`;
    default:
      return assertNever(rejection);
  }
}

/**
 * Applies `trigger` to an invoice in `status`. Throws BusinessRuleError when
 * the caller asks for a move the status forbids. For system triggers that
 * have nothing to do (`submitFailed` outside PROCESSING, `expire` outside
 * PENDING, PROCESSING and FAILED) it returns the status unchanged with no audit or event.
 */
export function transition(status: InvoiceStatus, trigger: InvoiceTrigger): TransitionResult {
  const outcome = TRANSITIONS[trigger][status];
  switch (outcome.kind) {
    case "move":
      return {
        from: status,
        to: outcome.to,
        changed: outcome.to !== status,
        audit: outcome.audit,
        event: outcome.event,
      };
    case "ignore":
      return { from: status, to: status, changed: false, audit: null, event: null };
    case "reject":
      throw new BusinessRuleError(rejectionMessage(outcome.rejection, status));
    default:
      return assertNever(outcome);
  }
}

/**
 * The column a move stamps with its time, besides `updatedAt`. A payment's `paidAt` is the
 * ledger's time of the transaction, which the caller supplies.
 */
export const TRANSITION_STAMPS = {
  send: "sentAt",
  pay: "paidAt",
  expire: "expiredAt",
  cancel: "cancelledAt",
  delete: "deletedAt",
} as const satisfies Partial<Record<InvoiceTrigger, string>>;
export type TransitionStamp = (typeof TRANSITION_STAMPS)[keyof typeof TRANSITION_STAMPS];

export function stampOf(trigger: InvoiceTrigger): TransitionStamp | null {
  return (TRANSITION_STAMPS as Partial<Record<InvoiceTrigger, TransitionStamp>>)[trigger] ?? null;
}

/** An invoice, or a payment link: a single-use invoice that is payable as soon as it exists. */
export type InvoiceKind = "INVOICE" | "LINK";

/** Creation, the move into a first status: audit CREATED and the created event. */
export type Creation = Omit<TransitionResult, "from"> & { from: null };

export function creation(kind: InvoiceKind): Creation {
  const to = kind === "LINK" ? "PENDING" : "DRAFT";
  return { from: null, to, changed: true, audit: "CREATED", event: "invoice.created" };
}

/**
 * The outbox events a move writes, in order. The table names the invoice event; a payment
 * also writes payment.confirmed, and a payment link announces itself in its own words:
 * link.created instead of invoice.created, link.paid after the payment, and no event when
 * it expires (there is no link expiry event type; the audit entry records it).
 */
export function eventsFor(kind: InvoiceKind, event: EventType | null): EventType[] {
  if (event === null) return [];
  const paid: EventType[] = ["invoice.paid", "payment.confirmed"];
  if (kind === "INVOICE") return event === "invoice.paid" ? paid : [event];
  switch (event) {
    case "invoice.created":
      return ["link.created"];
    case "invoice.paid":
      return [...paid, "link.paid"];
    case "invoice.expired":
      return [];
    default:
      return [event];
  }
}

/** True when `trigger` is allowed from `status` (neither rejected nor ignored). */
export function canTransition(status: InvoiceStatus, trigger: InvoiceTrigger): boolean {
  return TRANSITIONS[trigger][status].kind === "move";
}

export function isPayable(status: InvoiceStatus): boolean {
  return (PAYABLE_STATUSES as readonly InvoiceStatus[]).includes(status);
}

export function isEditable(status: InvoiceStatus): boolean {
  return (EDITABLE_STATUSES as readonly InvoiceStatus[]).includes(status);
}

export function isInvoiceStatus(value: unknown): value is InvoiceStatus {
  return typeof value === "string" && (INVOICE_STATUSES as readonly string[]).includes(value);
}

function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${String(value)}`);
}
