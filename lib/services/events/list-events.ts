import { and, desc, eq, exists, gte, lt, ne, or, type SQL, sql } from "drizzle-orm";
import { events, invoices, salesQuotes } from "@/db/schema";
import { ValidationError } from "@/lib/domain/errors";
import type { EventType } from "@/lib/domain/invoice-state";
import { PING_EVENT } from "@/lib/schemas/events";
import { keyNetworkCondition, keyPassphrase } from "@/lib/services/auth/key-network";
import type { AuthedContext } from "@/lib/services/context";

/**
 * How far back `GET /api/events` looks (docs/decisions.md, Events). Retention
 * (lib/webhooks/retention.ts) keeps every event at least this long, so the window is never
 * cut short; events a little older that retention has not reached yet are not listed either.
 */
export const EVENT_LIST_DAYS = 30;

export const NO_SUCH_EVENT = "No such event";

/** The 400 of a `starting_after` that is not one of the caller's events. */
export const unknownCursor = () =>
  new ValidationError("Invalid request", { starting_after: NO_SUCH_EVENT });

export type EventListRow = Pick<
  typeof events.$inferSelect,
  "id" | "type" | "invoiceId" | "data" | "createdAt"
>;
export type EventPage = { events: EventListRow[]; limit: number; hasMore: boolean };

const columns = {
  id: events.id,
  type: events.type,
  invoiceId: events.invoiceId,
  data: events.data,
  createdAt: events.createdAt,
};

/**
 * The caller's events; through an API key only those of invoices (and links) on the key's
 * network, as its invoice lists (lib/services/auth/key-network.ts). Every event type carries
 * its invoice; an event without one is the wallet's alone. Test events (`ping`) are never listed.
 */
function visibleTo(ctx: AuthedContext): SQL[] {
  // A test event (`ping`) is a delivery to one endpoint, not something that happened.
  const own = and(eq(events.wallet, ctx.wallet), ne(events.type, PING_EVENT)) as SQL;
  if (!ctx.apiKey) return [own];
  const onKeyNetwork = ctx.db
    .select({ one: sql`1` })
    .from(invoices)
    .where(
      and(
        eq(invoices.id, events.invoiceId),
        eq(invoices.freelancerWallet, ctx.wallet),
        ...keyNetworkCondition(ctx),
      ),
    );
  // A quote's events carry the quote (docs/decisions.md, Quotes): its network decides.
  const passphrase = keyPassphrase(ctx);
  const quoteOnKeyNetwork = ctx.db
    .select({ one: sql`1` })
    .from(salesQuotes)
    .where(
      and(
        eq(salesQuotes.id, events.invoiceId),
        eq(salesQuotes.wallet, ctx.wallet),
        ...(passphrase ? [eq(salesQuotes.networkPassphrase, passphrase)] : []),
      ),
    );
  return [own, or(exists(onKeyNetwork), exists(quoteOnKeyNetwork)) as SQL];
}

/**
 * The caller's events of the last EVENT_LIST_DAYS days, newest first (by `seq`, the outbox
 * order), `limit` at a time. `startingAfter` is an event id of the caller's: the page holds
 * the events after it in that order. An id that is unknown, or another wallet's, is a 400
 * with the same words for both, so nobody learns whether another wallet's event exists.
 * Both queries read the index events_wallet_idx (wallet, seq) or the primary key.
 */
export async function listEvents(
  ctx: AuthedContext,
  query: { limit: number; startingAfter?: string; type?: EventType },
): Promise<EventPage> {
  const visible = visibleTo(ctx);
  const since = new Date(ctx.now().getTime() - EVENT_LIST_DAYS * 86_400_000);
  const where: SQL[] = [...visible, gte(events.createdAt, since)];
  if (query.type) where.push(eq(events.type, query.type));
  if (query.startingAfter) {
    const [cursor] = await ctx.db
      .select({ seq: events.seq })
      .from(events)
      .where(and(eq(events.id, query.startingAfter), ...visible))
      .limit(1);
    if (!cursor) throw unknownCursor();
    where.push(lt(events.seq, cursor.seq));
  }
  const rows = await ctx.db
    .select(columns)
    .from(events)
    .where(and(...where))
    .orderBy(desc(events.seq))
    .limit(query.limit + 1);
  return {
    events: rows.slice(0, query.limit),
    limit: query.limit,
    hasMore: rows.length > query.limit,
  };
}
