import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { quoteAuditLogs, quoteNumberCounters, salesQuotes } from "@/db/schema";
import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { QUOTE_NOT_FOUND } from "@/lib/domain/not-found";
import { isId } from "@/lib/ids";
import { keySees } from "@/lib/services/auth/key-network";
import type { AuthedContext } from "@/lib/services/context";

export type QuoteRow = typeof salesQuotes.$inferSelect;
export type NewQuoteRow = typeof salesQuotes.$inferInsert;
export type QuoteAuditRow = typeof quoteAuditLogs.$inferSelect;
export type OwnerQuote = QuoteRow & { auditLogs: QuoteAuditRow[] };

export { QUOTE_NOT_FOUND };

/** A live (not deleted) quote; 404 otherwise. `lock`: FOR UPDATE for the rest of `tx`. */
export async function getLiveQuote(db: DbOrTx, id: string, lock = false): Promise<QuoteRow> {
  if (!isId(id)) throw new NotFoundError(QUOTE_NOT_FOUND);
  const query = db
    .select()
    .from(salesQuotes)
    .where(and(eq(salesQuotes.id, id), isNull(salesQuotes.deletedAt)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new NotFoundError(QUOTE_NOT_FOUND);
  return row;
}

/**
 * 403 `Unauthorized` for another wallet's quote (docs/decisions.md, Ownership); 404 when the
 * caller's API key works on the other network.
 */
export function assertQuoteOwner(row: QuoteRow, ctx: AuthedContext): void {
  if (row.wallet !== ctx.wallet) throw new ForbiddenError("Unauthorized");
  if (!keySees(ctx, row)) throw new NotFoundError(QUOTE_NOT_FOUND);
}

/** Locks the caller's live quote for the rest of `tx`. */
export async function lockQuoteForOwner(
  tx: DbOrTx,
  id: string,
  ctx: AuthedContext,
): Promise<QuoteRow> {
  const row = await getLiveQuote(tx, id, true);
  assertQuoteOwner(row, ctx);
  return row;
}

export async function loadOwnerQuote(db: DbOrTx, row: QuoteRow): Promise<OwnerQuote> {
  const auditLogs = await db
    .select()
    .from(quoteAuditLogs)
    .where(eq(quoteAuditLogs.quoteId, row.id))
    .orderBy(asc(quoteAuditLogs.seq));
  return { ...row, auditLogs };
}

/**
 * Counts the wallet's quote counter up by one (from 1) in the caller's transaction: concurrent
 * creates queue on the row and a rollback gives the number back, so QT- numbers have no gaps.
 */
export async function takeNextQuoteNumber(tx: DbOrTx, wallet: string): Promise<bigint> {
  const [row] = await tx
    .insert(quoteNumberCounters)
    .values({ wallet, last: 1n })
    .onConflictDoUpdate({
      target: quoteNumberCounters.wallet,
      set: { last: sql`${quoteNumberCounters.last} + 1` },
    })
    .returning({ last: quoteNumberCounters.last });
  return BigInt(row.last);
}
