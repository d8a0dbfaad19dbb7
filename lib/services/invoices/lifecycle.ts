import { and, eq, gt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { invoiceAuditLogs, invoices } from "@/db/schema";
import { invoiceAmountDue } from "@/lib/domain/fiat";
import {
  type AuditAction,
  type Creation,
  creation,
  type EventType,
  eventsFor,
  type InvoiceStatus,
  type InvoiceTrigger,
  PAYER_ATTEMPT_AUDIT_WINDOW_MS,
  PAYER_ATTEMPT_TRIGGERS,
  stampOf,
  type TransitionResult,
  transition,
} from "@/lib/domain/invoice-state";
import type { Currency, PriceCurrency } from "@/lib/domain/money";
import type { QuoteEventType } from "@/lib/domain/quote-state";
import { newId } from "@/lib/ids";
import type { EventData, EventPayload } from "@/lib/schemas/events";
import { writeEvent } from "@/lib/services/events/outbox";
import type { InvoiceRow, PaymentRow } from "./store";

// Every status change of an invoice or payment link goes through applyTransition (or, for
// a new row, recordCreation): it checks the move against the table in
// lib/domain/invoice-state.ts, updates the row, and writes the audit entry and the outbox
// events that the table names, in the caller's transaction (ARCHITECTURE.md, "add an event").

/** The actor of changes the service makes itself (expiry, the watcher, a failed submit). */
export const SYSTEM_ACTOR = "SYSTEM";
/** The actor of a pay-intent without a sender wallet. */
export const ANONYMOUS_ACTOR = "ANONYMOUS";

export type InvoiceChanges = Partial<typeof invoices.$inferInsert>;

export type TransitionDetails = {
  /** Who made the change: the owner's wallet, the payer's, SYSTEM_ACTOR or ANONYMOUS_ACTOR. */
  actor: string;
  /** The caller's ctx.now(): audit and event time, `updatedAt` and the move's stamp column. */
  at: Date;
  /** Other columns the move writes (edited fields, the payment's hash, ledger and time). */
  set?: InvoiceChanges;
  /** Audit `changes` besides the status (the edit diff, a ledger code, a reason...). */
  changes?: Record<string, unknown>;
  /** What the events carry beyond the row: the cancel reason, the payments, a link's URL. */
  reason?: string | null;
  /** The rows a payment move recorded: each gets payment.confirmed or payment.unapplied. */
  payments?: PaymentRow[];
  /** The refunded payment (payment.refunded), and the refund that event carries. */
  payment?: PaymentRow;
  refund?: EventData<"payment.refunded">["refund"];
  checkoutUrl?: string;
  /** The credit note a `credit` move issued (credit_note.created). */
  creditNote?: CreditNoteFacts;
  /** The audit entry only: a payer's checkout of a reusable link (docs/decisions.md). */
  withoutEvents?: boolean;
};

/** What credit_note.created tells about the credit note (lib/services/credit-notes). */
export type CreditNoteFacts = {
  id: string;
  number: string;
  reason: string;
  subtotal: string;
  taxAmount: string;
  total: string;
  unit: string;
  refundId: string | null;
  createdAt: Date;
};

type Move = Pick<TransitionResult, "to" | "audit" | "event"> & { from: InvoiceStatus | null };

/**
 * Applies `trigger` to `invoice`, which the caller has locked in `tx`: throws the table's
 * BusinessRuleError for a refused move, writes nothing for a move the table records nothing
 * for (a system trigger with nothing to do, a repeated pay-intent), and otherwise updates
 * the row (status, the move's stamp, `details.set`, updatedAt) and writes its audit entry
 * and events. Returns the row as it now is.
 */
export async function applyTransition(
  tx: DbOrTx,
  invoice: InvoiceRow,
  trigger: InvoiceTrigger,
  details: TransitionDetails,
): Promise<InvoiceRow> {
  const move = transition(invoice.status, trigger);
  if (!move.changed && move.audit === null) return invoice;
  const [row] = await tx
    .update(invoices)
    .set(rowChanges(trigger, move, details))
    .where(eq(invoices.id, invoice.id))
    .returning();
  await writeRecords(tx, row, move, details, trigger);
  return row;
}

/** The audit entry and events of a row just inserted in its first status (creation). */
export async function recordCreation(
  tx: DbOrTx,
  row: InvoiceRow,
  details: Omit<TransitionDetails, "set">,
): Promise<void> {
  await writeRecords(tx, row, creation(row.kind), details);
}

/** The status a new invoice or link is inserted with. */
export const initialStatus = (kind: InvoiceRow["kind"]): InvoiceStatus => creation(kind).to;

/** The columns a move writes; `details.set` may override the stamp (a payment's paidAt). */
export function rowChanges(
  trigger: InvoiceTrigger,
  move: Pick<TransitionResult, "to">,
  details: Pick<TransitionDetails, "at" | "set">,
): InvoiceChanges {
  const stamp = stampOf(trigger);
  return {
    status: move.to,
    ...(stamp ? { [stamp]: details.at } : {}),
    ...details.set,
    updatedAt: details.at,
  };
}

export type PlannedRecords = {
  audit: { action: AuditAction; changes: Record<string, unknown> | null } | null;
  /** Typed by each type's schema; parsed when written (writeEvent). */
  events: EventPayload[];
};

/**
 * What a move records, from the row as it is after the move: the audit entry (a status
 * change is always in `changes.status`) and the events of the row's kind with their data.
 */
export function plannedRecords(
  row: InvoiceRow,
  move: Move | Creation,
  details: TransitionDetails,
): PlannedRecords {
  const status = move.from === move.to ? {} : { status: { from: move.from, to: move.to } };
  const changes = { ...status, ...details.changes };
  return {
    audit: move.audit && {
      action: move.audit,
      changes: Object.keys(changes).length > 0 ? changes : null,
    },
    events: eventsFor(row.kind, move.event).flatMap((type) =>
      type === "payment.confirmed"
        ? paymentEvents({ row, from: move.from, details })
        : // Invoice moves name invoice events only (quote moves are lib/domain/quote-state.ts's).
          [built(type as InvoiceEventType, { row, from: move.from, details })],
    ),
  };
}

async function writeRecords(
  tx: DbOrTx,
  row: InvoiceRow,
  move: Move | Creation,
  details: TransitionDetails,
  trigger?: InvoiceTrigger,
): Promise<void> {
  const planned = plannedRecords(row, move, details);
  if (planned.audit && !(await coalesced(tx, row, trigger, planned.audit.action, details.at))) {
    await tx.insert(invoiceAuditLogs).values({
      id: newId(),
      invoiceId: row.id,
      action: planned.audit.action,
      actorWallet: details.actor,
      changes: planned.audit.changes,
      createdAt: details.at,
    });
  }
  for (const event of details.withoutEvents ? [] : planned.events) {
    await writeEvent(tx, {
      ...event,
      wallet: row.freelancerWallet,
      invoiceId: row.id,
      at: details.at,
    });
  }
}

/**
 * A payer's attempt (PAYER_ATTEMPT_TRIGGERS) when this invoice already has the same entry
 * (action and status reached) within the window: the entry is left out, so anonymous callers
 * cannot flood the trail. An owner's edit (UPDATED without a status) never counts.
 */
async function coalesced(
  tx: DbOrTx,
  row: InvoiceRow,
  trigger: InvoiceTrigger | undefined,
  action: AuditAction,
  at: Date,
): Promise<boolean> {
  if (!trigger || !PAYER_ATTEMPT_TRIGGERS.has(trigger)) return false;
  const since = new Date(at.getTime() - PAYER_ATTEMPT_AUDIT_WINDOW_MS);
  const [recent] = await tx
    .select({ id: invoiceAuditLogs.id })
    .from(invoiceAuditLogs)
    .where(
      and(
        eq(invoiceAuditLogs.invoiceId, row.id),
        eq(invoiceAuditLogs.action, action),
        gt(invoiceAuditLogs.createdAt, since),
        sql`${invoiceAuditLogs.changes}->'status'->>'to' = ${row.status}`,
      ),
    )
    .limit(1);
  return recent !== undefined;
}

// ---------------------------------------------------------------------------
// Event data: one builder per event type, typed by that type's schema (EventData,
// lib/schemas/events.ts); writeEvent parses what they return before it enters the outbox.

type EventFacts = {
  row: InvoiceRow;
  from: InvoiceStatus | null;
  details: TransitionDetails;
  /** The payment row of a payment event. */
  payment?: PaymentRow;
};

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * A value the event's schema requires that the row's type allows to be null (a paid
 * invoice's hash, a link's expiry): it is passed on as it is, and the outbox's parse refuses
 * a null, failing the transaction (lib/services/events/outbox.ts).
 */
const required = <T>(value: T | null | undefined): T => value as T;

/** What every invoice status event starts with. */
const statusChange = ({ row, from }: EventFacts) => ({
  id: row.id,
  invoiceNumber: row.invoiceNumber,
  status: row.status,
  previousStatus: required(from),
});

/** The payload of `type` built from `facts`. */
function built<T extends InvoiceEventType>(type: T, facts: EventFacts): EventPayload {
  return { type, data: BUILDERS[type](facts) } as EventPayload;
}

/**
 * One event per payment row the move recorded, in operation order: payment.confirmed for an
 * applied row, payment.unapplied for one that does not count (docs/decisions.md, Webhooks).
 */
function paymentEvents(facts: EventFacts): EventPayload[] {
  const rows = facts.details.payments ?? [];
  // A credit note that leaves nothing due pays the invoice without a payment (credit-notes).
  if (rows.length === 0 && facts.details.creditNote) return [];
  if (rows.length === 0) throw new Error("payment events need the recorded payments");
  return rows.map((payment) =>
    built(payment.applied ? "payment.confirmed" : "payment.unapplied", { ...facts, payment }),
  );
}

function paymentOf(facts: EventFacts): PaymentRow {
  const payment = facts.payment ?? facts.details.payment;
  if (!payment) throw new Error("a payment event needs its payment");
  return payment;
}

/** What every payment event starts with. */
const paymentFields = (payment: PaymentRow, row: InvoiceRow) => ({
  id: payment.id,
  invoiceId: row.id,
  transactionHash: payment.transactionHash,
  ledgerNumber: payment.ledgerNumber,
  fromWallet: payment.fromWallet,
  toWallet: payment.toWallet,
  amount: payment.amount,
  asset: payment.asset,
  confirmedAt: payment.confirmedAt.toISOString(),
  method: payment.method,
  reference: payment.reference,
});

/** The events invoice moves write; the quote events are built by lib/services/quotes/lifecycle.ts. */
type InvoiceEventType = Exclude<EventType, QuoteEventType>;

const BUILDERS: { [T in InvoiceEventType]: (facts: EventFacts) => EventData<T> } = {
  "invoice.created": ({ row }) => ({
    id: row.id,
    invoiceNumber: row.invoiceNumber,
    status: row.status,
    freelancerWallet: row.freelancerWallet,
    clientName: row.clientName,
    clientEmail: row.clientEmail,
    total: row.total,
    currency: row.currency,
    priceCurrency: row.priceCurrency,
    createdAt: row.createdAt.toISOString(),
    recurringId: row.recurringId,
  }),
  "invoice.sent": (facts) => ({ ...statusChange(facts), sentAt: facts.details.at.toISOString() }),
  "invoice.paid": (facts) => ({
    ...statusChange(facts),
    total: facts.row.total,
    currency: facts.row.currency,
    priceCurrency: facts.row.priceCurrency,
    // Null when a payment received outside Stellar completed it (docs/decisions.md).
    transactionHash: facts.row.transactionHash,
    ledgerNumber: facts.row.ledgerNumber,
    payerWallet: facts.row.payerWallet,
    paidAt: required(iso(facts.row.paidAt)),
  }),
  "invoice.expired": (facts) => ({
    ...statusChange(facts),
    dueDate: iso(facts.row.dueDate),
    expiredAt: facts.details.at.toISOString(),
  }),
  "invoice.cancelled": (facts) => ({
    ...statusChange(facts),
    cancelledAt: facts.details.at.toISOString(),
    // The owner's wallet, as documented: only the owner cancels, signed in or through one of
    // its API keys (whose `key:<prefix>` the audit entry names as the actor).
    cancelledBy: facts.row.freelancerWallet,
    reason: facts.details.reason ?? null,
  }),
  "payment.confirmed": (facts) => {
    const payment = paymentOf(facts);
    return {
      ...paymentFields(payment, facts.row),
      // An applied payment is in the invoice's currency (classifyPayment), or one recorded by
      // hand in its price currency; the parse checks it.
      asset: payment.asset as Currency | PriceCurrency,
      applied: true,
      amountPaid: facts.row.amountPaid,
      amountDue: invoiceAmountDue(facts.row),
      priceCurrency: facts.row.priceCurrency,
    };
  },
  "payment.unapplied": (facts) => {
    const payment = paymentOf(facts);
    return {
      ...paymentFields(payment, facts.row),
      assetIssuer: payment.assetIssuer,
      applied: false,
      reason: required(payment.unappliedReason),
    };
  },
  "payment.refunded": (facts) => {
    const payment = paymentOf(facts);
    return {
      ...paymentFields(payment, facts.row),
      // A refunded payment was confirmed (FAILED ones are never refunded); the parse checks it.
      status: payment.status as "CONFIRMED" | "REFUNDED",
      amountRefunded: payment.amountRefunded,
      amountPaid: facts.row.amountPaid,
      priceCurrency: facts.row.priceCurrency,
      refund: required(facts.details.refund),
    };
  },
  "payment.voided": (facts) => ({
    ...paymentFields(paymentOf(facts), facts.row),
    status: "VOIDED",
    amountPaid: facts.row.amountPaid,
    amountDue: invoiceAmountDue(facts.row),
    priceCurrency: facts.row.priceCurrency,
  }),
  "link.created": ({ row, details }) => ({
    id: row.id,
    checkoutUrl: required(details.checkoutUrl),
    amount: row.linkOpenAmount ? null : row.total,
    asset: row.currency,
    priceCurrency: row.priceCurrency,
    metadata: { title: row.title, reference: row.linkReference },
    expiresAt: iso(row.linkExpiresAt),
    createdAt: details.at.toISOString(),
  }),
  "credit_note.created": ({ row, details }) => {
    const note = required(details.creditNote);
    return {
      id: note.id,
      number: note.number,
      invoiceId: row.id,
      invoiceNumber: row.invoiceNumber,
      reason: note.reason,
      subtotal: note.subtotal,
      taxAmount: note.taxAmount,
      total: note.total,
      unit: note.unit,
      refundId: note.refundId,
      amountCredited: row.amountCredited,
      amountDue: invoiceAmountDue(row),
      createdAt: note.createdAt.toISOString(),
    };
  },
  "link.paid": ({ row }) => ({
    id: row.id,
    // A checkout of a reusable or open-amount link names its link (docs/decisions.md).
    ...(row.parentLinkId ? { parentLinkId: row.parentLinkId } : {}),
    amount: row.total,
    asset: row.currency,
    priceCurrency: row.priceCurrency,
    transactionHash: required(row.transactionHash),
    metadata: { reference: row.linkReference },
    paidAt: required(iso(row.paidAt)),
  }),
};
