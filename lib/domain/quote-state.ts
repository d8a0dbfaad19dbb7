import { BusinessRuleError, ConflictError } from "./errors";

// The quote lifecycle (docs/decisions.md, Quotes). QUOTE_TRANSITIONS is the one table of moves,
// as TRANSITIONS is for invoices (lib/domain/invoice-state.ts): which trigger may move a quote
// from which status, to what, and which audit action and outbox event record it. Services never
// write a status themselves: `applyQuoteTransition` (lib/services/quotes/lifecycle.ts) reads it.

export const QUOTE_STATUSES = [
  "DRAFT",
  "SENT",
  "ACCEPTED",
  "DECLINED",
  "EXPIRED",
  "CONVERTED",
] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export const QUOTE_TRIGGERS = [
  "update", // PATCH /api/quotes/:id
  "delete", // DELETE /api/quotes/:id (soft delete)
  "send", // POST /api/quotes/:id/send
  "accept", // POST /api/quotes/:id/accept (the client)
  "convert", // the invoice made from an accepted quote, in the accept's transaction
  "decline", // POST /api/quotes/:id/decline (the client)
  "expire", // validUntil has ended (on read, or the housekeeping job)
] as const;
export type QuoteTrigger = (typeof QUOTE_TRIGGERS)[number];

/** What a quote's audit entry records (`quote_audit_logs.action`). */
export const QUOTE_AUDIT_ACTIONS = [
  "CREATED",
  "UPDATED",
  "DELETED",
  "SENT",
  "ACCEPTED",
  "CONVERTED",
  "DECLINED",
  "EXPIRED",
] as const;
export type QuoteAuditAction = (typeof QUOTE_AUDIT_ACTIONS)[number];

/** The quote events (also in EVENT_TYPES, lib/domain/invoice-state.ts). */
export const QUOTE_EVENT_TYPES = ["quote.sent", "quote.accepted", "quote.declined"] as const;
export type QuoteEventType = (typeof QUOTE_EVENT_TYPES)[number];

type Outcome =
  | {
      kind: "move";
      to: QuoteStatus;
      audit: QuoteAuditAction;
      event: QuoteEventType | null;
    }
  /** A system trigger with nothing to do from this status: no change, no error. */
  | { kind: "ignore" }
  | { kind: "reject" };

const move = (
  to: QuoteStatus,
  audit: QuoteAuditAction,
  event: QuoteEventType | null = null,
): Outcome => ({ kind: "move", to, audit, event });
const reject: Outcome = { kind: "reject" };
const ignore: Outcome = { kind: "ignore" };

/** Allowed from `from` only. */
const only = (from: QuoteStatus, outcome: Outcome, elsewhere: Outcome = reject) =>
  Object.fromEntries(QUOTE_STATUSES.map((s) => [s, s === from ? outcome : elsewhere])) as Record<
    QuoteStatus,
    Outcome
  >;

// Every (trigger, status) pair is spelled out through `only`: a Record keyed by every status.
const QUOTE_TRANSITIONS: Record<QuoteTrigger, Record<QuoteStatus, Outcome>> = {
  update: only("DRAFT", move("DRAFT", "UPDATED")),
  delete: only("DRAFT", move("DRAFT", "DELETED")),
  send: only("DRAFT", move("SENT", "SENT", "quote.sent")),
  accept: only("SENT", move("ACCEPTED", "ACCEPTED", "quote.accepted")),
  convert: only("ACCEPTED", move("CONVERTED", "CONVERTED")),
  decline: only("SENT", move("DECLINED", "DECLINED", "quote.declined")),
  // The job and the read both expire: whichever comes second finds nothing to do.
  expire: only("SENT", move("EXPIRED", "EXPIRED"), ignore),
};

export const ONLY_DRAFT_QUOTE = "Only quotes in DRAFT status can be modified";
export const QUOTE_EXPIRED = "This quote has expired and can no longer be accepted";
export const quoteClosedMessage = (status: QuoteStatus, verb: "accepted" | "declined") =>
  `This quote can no longer be ${verb}. Current status: ${status}`;

export type QuoteTransition = {
  from: QuoteStatus;
  to: QuoteStatus;
  audit: QuoteAuditAction | null;
  event: QuoteEventType | null;
};

/**
 * The move of `trigger` from `status`, or the error it answers: the owner's edits and sends
 * 400 (business rule), the client's accept and decline 409 (the quote moved on meanwhile: an
 * expired one says so in words).
 */
export function quoteTransition(status: QuoteStatus, trigger: QuoteTrigger): QuoteTransition {
  const outcome = QUOTE_TRANSITIONS[trigger][status];
  if (outcome.kind === "move") {
    return { from: status, to: outcome.to, audit: outcome.audit, event: outcome.event };
  }
  if (outcome.kind === "ignore") return { from: status, to: status, audit: null, event: null };
  switch (trigger) {
    case "update":
    case "delete":
      throw new BusinessRuleError(ONLY_DRAFT_QUOTE);
    case "send":
      throw new BusinessRuleError(`Quote cannot be sent. Current status: ${status}`);
    case "accept":
      if (status === "EXPIRED") throw new ConflictError(QUOTE_EXPIRED);
      throw new ConflictError(quoteClosedMessage(status, "accepted"));
    case "decline":
      if (status === "EXPIRED") throw new ConflictError(QUOTE_EXPIRED);
      throw new ConflictError(quoteClosedMessage(status, "declined"));
    default:
      // convert runs only after accept in the same transaction: a refusal here is a bug.
      throw new Error(`Quote move ${trigger} refused from ${status}`);
  }
}

/** True when `trigger` moves a quote out of `status` (the pages' buttons). */
export const quoteAllows = (status: QuoteStatus, trigger: QuoteTrigger): boolean =>
  QUOTE_TRANSITIONS[trigger][status].kind === "move";

/** QT-0001, QT-0002, ... per wallet (docs/decisions.md, Quotes). */
export const QUOTE_NUMBER_PREFIX = "QT-";
export function formatQuoteNumber(sequence: bigint | number): string {
  const value = BigInt(sequence);
  if (value < 1n) throw new RangeError(`Quote sequence must be positive, got ${value}`);
  return `${QUOTE_NUMBER_PREFIX}${value.toString().padStart(4, "0")}`;
}

/** What the client chose to happen on acceptance: the invoice stays a draft, or is sent. */
export const QUOTE_ON_ACCEPT = ["draft", "send"] as const;
export type QuoteOnAccept = (typeof QUOTE_ON_ACCEPT)[number];

/** Days a quote stays open when `validUntil` is left out. */
export const DEFAULT_QUOTE_VALID_DAYS = 30;

/** `YYYY-MM-DD` of a UTC day. */
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** A quote can be accepted through the whole of its `validUntil` day (UTC). */
export function quoteHasExpired(validUntil: string, now: Date): boolean {
  return dayOf(now) > validUntil;
}

/** The default `validUntil`: 30 days from `now`. */
export function defaultValidUntil(now: Date): string {
  return dayOf(new Date(now.getTime() + DEFAULT_QUOTE_VALID_DAYS * 86_400_000));
}

export const VALID_UNTIL_PAST = "validUntil cannot be in the past";

/** The status a reader sees: a SENT quote whose day has ended is EXPIRED even before the job. */
export function shownQuoteStatus(status: QuoteStatus, validUntil: string, now: Date): QuoteStatus {
  return status === "SENT" && quoteHasExpired(validUntil, now) ? "EXPIRED" : status;
}
