import { and, eq, isNull, lt } from "drizzle-orm";
import { salesQuotes } from "@/db/schema";
import { quoteHasExpired } from "@/lib/domain/quote-state";
import type { ServiceContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import { applyQuoteTransition, SYSTEM_ACTOR } from "./lifecycle";
import type { QuoteRow } from "./store";

// Expiry (docs/decisions.md, Quotes): a SENT quote whose validUntil day (UTC) has ended becomes
// EXPIRED, with its audit entry. Done on read (the quote, its page, the list) and by the
// housekeeping job; each quote is claimed FOR UPDATE SKIP LOCKED and moved only while still
// SENT, so any number of processes and repeats expire it once.

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** Expires every due SENT quote (of one wallet, or all), `limit` at a time; returns the count. */
export async function expireDueQuotes(
  ctx: ServiceContext,
  opts: { wallet?: string; limit?: number } = {},
): Promise<{ expired: number }> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const due = await tx
      .select()
      .from(salesQuotes)
      .where(
        and(
          eq(salesQuotes.status, "SENT"),
          isNull(salesQuotes.deletedAt),
          lt(salesQuotes.validUntil, dayOf(now)),
          ...(opts.wallet ? [eq(salesQuotes.wallet, opts.wallet)] : []),
        ),
      )
      .limit(opts.limit ?? 500)
      .for("update", { skipLocked: true });
    for (const row of due) {
      await applyQuoteTransition(tx, row, "expire", {
        actor: SYSTEM_ACTOR,
        at: now,
        set: { expiredAt: now },
      });
    }
    return { expired: due.length };
  });
}

/** The row as a reader should see it: expired first when its day has ended while SENT. */
export async function expireIfDue(ctx: ServiceContext, row: QuoteRow): Promise<QuoteRow> {
  const now = ctx.now();
  if (row.status !== "SENT" || !quoteHasExpired(row.validUntil, now)) return row;
  return withTransaction(ctx.db, async (tx) => {
    const [locked] = await tx
      .select()
      .from(salesQuotes)
      .where(eq(salesQuotes.id, row.id))
      .for("update");
    // Another reader or the job expired it (or the client answered) meanwhile: "ignore".
    if (locked.status !== "SENT" || !quoteHasExpired(locked.validUntil, now)) return locked;
    return applyQuoteTransition(tx, locked, "expire", {
      actor: SYSTEM_ACTOR,
      at: now,
      set: { expiredAt: now },
    });
  });
}
