import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import {
  events,
  invoices,
  salesQuotes,
  webhookDeliveries,
  webhookSubscriptions,
} from "@/db/schema";
import { newId } from "@/lib/ids";
import type { ServiceContext } from "@/lib/services/context";
import { rowsOf, withTransaction } from "@/lib/services/db";
import { networkOf } from "@/lib/stellar/networks";
import { ALL_WALLETS } from "@/lib/webhooks/subscriptions";

/** Arbitrary constant: one fan-out at a time, so deliveries are created in seq order. */
const FAN_OUT_LOCK_KEY = 72_210_042;

/**
 * Fans out up to `maxBatches` batches of new events (fanOutEvents, below), each at its own
 * clock reading. `more`: the last batch was full, so events may be waiting.
 */
export async function fanOutNewEvents(
  ctx: Pick<ServiceContext, "db" | "now">,
  maxBatches = 10,
): Promise<{ events: number; more: boolean }> {
  let total = 0;
  let more = false;
  for (let i = 0; i < maxBatches; i++) {
    const fan = await fanOutEvents(ctx.db, ctx.now());
    total += fan.events;
    more = fan.more;
    if (!more) break;
  }
  return { events: total, more };
}

/**
 * Turns outbox events into delivery rows: claims events not yet fanned out, in seq order
 * (FOR UPDATE SKIP LOCKED, bounded batch), adds one pending delivery per live, enabled
 * subscription that wants the type (same wallet, or the configured `*` endpoint), and marks
 * the events fanned out, all in one transaction. A transaction-level advisory lock keeps
 * fan-outs one at a time: two workers fanning out different batches in parallel could
 * otherwise create a later event's delivery before an earlier one's and break per-invoice
 * order. Returns how many events it handled and whether a full batch was claimed.
 */
export async function fanOutEvents(
  db: DbOrTx,
  now: Date,
  opts: { batchSize?: number } = {},
): Promise<{ events: number; deliveries: number; more: boolean }> {
  const batchSize = opts.batchSize ?? 200;
  return withTransaction(db, async (tx) => {
    const lock = rowsOf<{ locked: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${FAN_OUT_LOCK_KEY}) as locked`),
    );
    if (!lock[0]?.locked) return { events: 0, deliveries: 0, more: false };
    const claimed = await tx
      .select({
        id: events.id,
        seq: events.seq,
        type: events.type,
        wallet: events.wallet,
        invoiceId: events.invoiceId,
        // An endpoint made by an API key receives only its network's events (a quote event's
        // `invoiceId` is the quote's: docs/decisions.md, Quotes).
        passphrase: sql<
          string | null
        >`coalesce(${invoices.networkPassphrase}, ${salesQuotes.networkPassphrase})`,
      })
      .from(events)
      .leftJoin(invoices, eq(invoices.id, events.invoiceId))
      .leftJoin(salesQuotes, eq(salesQuotes.id, events.invoiceId))
      .where(isNull(events.fannedOutAt))
      .orderBy(asc(events.seq))
      .limit(batchSize)
      .for("update", { of: events, skipLocked: true });
    if (claimed.length === 0) return { events: 0, deliveries: 0, more: false };

    const wallets = [...new Set(claimed.map((e) => e.wallet))];
    // FOR SHARE: a concurrent delete or disable waits for this fan-out, then closes the
    // deliveries it created (see deleteWebhook).
    const subscriptions = await tx
      .select({
        id: webhookSubscriptions.id,
        wallet: webhookSubscriptions.wallet,
        events: webhookSubscriptions.events,
        network: webhookSubscriptions.network,
      })
      .from(webhookSubscriptions)
      .where(
        and(
          or(
            inArray(webhookSubscriptions.wallet, wallets),
            eq(webhookSubscriptions.wallet, ALL_WALLETS),
          ),
          isNull(webhookSubscriptions.deletedAt),
          isNull(webhookSubscriptions.disabledAt),
        ),
      )
      .for("share");

    const rows: (typeof webhookDeliveries.$inferInsert)[] = [];
    for (const event of claimed) {
      for (const sub of subscriptions) {
        if (sub.wallet !== event.wallet && sub.wallet !== ALL_WALLETS) continue;
        if (!sub.events.includes("*") && !sub.events.includes(event.type)) continue;
        if (sub.network && (!event.passphrase || networkOf(event.passphrase) !== sub.network)) {
          continue;
        }
        rows.push({
          id: newId(),
          subscriptionId: sub.id,
          eventId: event.id,
          eventSeq: event.seq,
          invoiceId: event.invoiceId,
          status: "pending",
          attempts: 0,
          nextAttemptAt: now,
          createdAt: now,
        });
      }
    }
    for (let i = 0; i < rows.length; i += 500) {
      await tx
        .insert(webhookDeliveries)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing({
          target: [webhookDeliveries.subscriptionId, webhookDeliveries.eventId],
        });
    }
    await tx
      .update(events)
      .set({ fannedOutAt: now })
      .where(
        inArray(
          events.id,
          claimed.map((e) => e.id),
        ),
      );
    return { events: claimed.length, deliveries: rows.length, more: claimed.length === batchSize };
  });
}
