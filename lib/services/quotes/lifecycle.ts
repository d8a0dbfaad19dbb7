import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { quoteAuditLogs, salesQuotes } from "@/db/schema";
import { type QuoteEventType, type QuoteTrigger, quoteTransition } from "@/lib/domain/quote-state";
import { newId } from "@/lib/ids";
import type { EventData } from "@/lib/schemas/events";
import { writeEvent } from "@/lib/services/events/outbox";
import type { NewQuoteRow, QuoteRow } from "./store";

/** Who acts on a quote the client's page changes. */
export const CLIENT_ACTOR = "CLIENT";
export const SYSTEM_ACTOR = "SYSTEM";

export type QuoteMoveDetails = {
  actor: string;
  at: Date;
  /** Columns written with the status. */
  set?: Partial<NewQuoteRow>;
  /** Added to the audit entry's `changes` (beside `status`). */
  changes?: Record<string, unknown>;
  /** What the accept's event tells of the invoice made. */
  invoice?: { id: string; invoiceNumber: string; status: "DRAFT" | "PENDING" };
};

/**
 * The one writer of a quote's status (docs/decisions.md, Quotes): the move `trigger` allows from
 * the row's status (lib/domain/quote-state.ts), its columns, its audit entry and its event, in
 * the caller's transaction, where the row is locked. A refused move throws before any write.
 */
export async function applyQuoteTransition(
  tx: DbOrTx,
  row: QuoteRow,
  trigger: QuoteTrigger,
  details: QuoteMoveDetails,
): Promise<QuoteRow> {
  const move = quoteTransition(row.status, trigger);
  if (!move.audit) return row;
  const [updated] = await tx
    .update(salesQuotes)
    .set({ ...details.set, status: move.to, updatedAt: details.at })
    .where(eq(salesQuotes.id, row.id))
    .returning();
  const status = move.from === move.to ? {} : { status: { from: move.from, to: move.to } };
  const changes = { ...status, ...details.changes };
  await recordQuoteAudit(tx, row.id, move.audit, details.actor, details.at, changes);
  if (move.event) {
    await writeEvent(tx, {
      ...quoteEvent(move.event, updated, details),
      wallet: updated.wallet,
      invoiceId: updated.id,
      at: details.at,
    } as Parameters<typeof writeEvent>[1]);
  }
  return updated;
}

export async function recordQuoteAudit(
  tx: DbOrTx,
  quoteId: string,
  action: (typeof quoteAuditLogs.$inferInsert)["action"],
  actor: string,
  at: Date,
  changes: Record<string, unknown> | null,
): Promise<void> {
  await tx.insert(quoteAuditLogs).values({
    id: newId(),
    quoteId,
    action,
    actorWallet: actor,
    changes: changes && Object.keys(changes).length > 0 ? changes : null,
    createdAt: at,
  });
}

const common = (q: QuoteRow): EventData<"quote.sent"> => ({
  id: q.id,
  number: q.number,
  status: q.status,
  clientName: q.clientName,
  clientEmail: q.clientEmail,
  total: q.total,
  currency: q.currency,
  priceCurrency: q.priceCurrency,
  validUntil: q.validUntil,
});

/** The payload of a quote event, typed by its schema (lib/schemas/events.ts). */
export function quoteEvent(type: QuoteEventType, q: QuoteRow, details: QuoteMoveDetails) {
  switch (type) {
    case "quote.sent":
      return { type, data: common(q) };
    case "quote.accepted": {
      const invoice = details.invoice;
      if (!invoice) throw new Error("quote.accepted needs the invoice made from the quote");
      const data: EventData<"quote.accepted"> = {
        ...common(q),
        acceptedName: q.acceptedName ?? "",
        acceptedAt: (q.acceptedAt ?? details.at).toISOString(),
        invoiceId: invoice.id,
        invoiceNumber: invoice.invoiceNumber,
        invoiceStatus: invoice.status,
      };
      return { type, data };
    }
    case "quote.declined": {
      const data: EventData<"quote.declined"> = {
        ...common(q),
        declinedAt: (q.declinedAt ?? details.at).toISOString(),
        reason: q.declineReason,
      };
      return { type, data };
    }
  }
}
