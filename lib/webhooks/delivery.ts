import { and, asc, eq, inArray, isNull, lt, lte, notExists, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/db/client";
import { events, webhookDeliveries, webhookSubscriptions } from "@/db/schema";
import { DELIVERY_ERRORS, disabledError, httpStatusError } from "@/lib/domain/webhook-errors";
import type { ServiceContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import type { DeliveryRow } from "@/lib/webhooks/deliveries";
import { decideAfterFailure, isDelivered } from "@/lib/webhooks/policy";
import { type SendResult, sendWebhook } from "@/lib/webhooks/send";
import type { Resolver } from "@/lib/webhooks/ssrf";

export type DeliveryOptions = {
  /** Deliveries claimed per round (default 20). */
  batchSize?: number;
  /** Requests in flight at once (default 10). */
  concurrency?: number;
  /** A claim pushes next_attempt_at this far ahead (default WEBHOOK_LEASE_MS), see below. */
  leaseMs?: number;
  /** Rounds per call (default 25): each round can advance every invoice's queue by one. */
  maxRounds?: number;
  /** No new round starts after this long (default 20 s, inside a cron function's limit). */
  timeBudgetMs?: number;
  /** Jitter source (tests pin it). */
  random?: () => number;
  /** Host name resolver of the SSRF check (tests inject one). */
  resolve?: Resolver;
};

export type DeliveryCounts = {
  attempted: number;
  delivered: number;
  retrying: number;
  failed: number;
  /** Work was left for another pass. */
  more: boolean;
};

type Outcome = "delivered" | "retrying" | "failed";

export type DeliveryContext = Pick<ServiceContext, "db" | "config" | "now" | "logger">;

/**
 * In rounds, claims due deliveries, POSTs them outside any transaction and records each
 * result (docs/decisions.md, Webhooks).
 *
 * Claim: a short transaction selects due pending deliveries of live, enabled endpoints with
 * FOR UPDATE SKIP LOCKED, counts the attempt and moves next_attempt_at `leaseMs` ahead: the
 * lease. Another process skips the row while it is locked and, after the commit, because it
 * is no longer due; if this process dies mid-send the delivery is simply due again when the
 * lease ends (at least once). Results are recorded only if the attempt count still matches.
 *
 * Order: a delivery with an invoice is claimed only when no earlier (lower seq) delivery of
 * the same invoice to the same endpoint is still pending, so each invoice's events reach an
 * endpoint in order; one failing event holds back the later events of that invoice (never
 * other invoices) until it is delivered or given up. Events without an invoice are unordered.
 *
 * A delivery is attempted at most once per call: only rows due when the rounds start are
 * claimed, and a failure is always rescheduled later than that. The time budget counts from
 * `startedAt` (the start of the whole job).
 */
export async function sendDueDeliveries(
  ctx: DeliveryContext,
  opts: DeliveryOptions = {},
  startedAt = Date.now(),
): Promise<DeliveryCounts> {
  const maxRounds = opts.maxRounds ?? 25;
  const counts: DeliveryCounts = {
    attempted: 0,
    delivered: 0,
    retrying: 0,
    failed: 0,
    more: false,
  };
  const dueBy = ctx.now();
  for (let round = 0; round < maxRounds; round++) {
    if (Date.now() - startedAt > (opts.timeBudgetMs ?? 20_000)) {
      counts.more = true;
      break;
    }
    const claimed = await claimDueDeliveries(ctx.db, {
      dueBy,
      now: ctx.now(),
      leaseMs: opts.leaseMs ?? ctx.config.webhooks.leaseMs,
      limit: opts.batchSize ?? 20,
    });
    if (claimed.length === 0) break;
    const outcomes = await mapLimit(claimed, opts.concurrency ?? 10, (d) =>
      attemptDelivery(ctx, d, opts),
    );
    for (const outcome of outcomes) {
      counts.attempted++;
      counts[outcome]++;
    }
    if (round === maxRounds - 1) counts.more = true;
  }
  return counts;
}

/** Claims up to `limit` due deliveries (see sendDueDeliveries) and returns them leased. */
async function claimDueDeliveries(
  db: DbOrTx,
  opts: { dueBy: Date; now: Date; leaseMs: number; limit: number },
): Promise<DeliveryRow[]> {
  const d = webhookDeliveries;
  const s = webhookSubscriptions;
  return withTransaction(db, async (tx) => {
    const due = await tx
      .select({ id: d.id })
      .from(d)
      .innerJoin(s, eq(s.id, d.subscriptionId))
      .where(
        and(
          eq(d.status, "pending"),
          lte(d.nextAttemptAt, opts.dueBy),
          isNull(s.deletedAt),
          isNull(s.disabledAt),
          or(isNull(d.invoiceId), notExists(earlierPendingOfSameInvoice(tx))),
        ),
      )
      .orderBy(asc(d.nextAttemptAt), asc(d.eventSeq))
      .limit(opts.limit)
      .for("update", { of: d, skipLocked: true });
    if (due.length === 0) return [];
    const ids = due.map((r) => r.id);
    return tx
      .update(d)
      .set({
        attempts: sql`${d.attempts} + 1`,
        lastAttemptAt: opts.now,
        nextAttemptAt: new Date(opts.now.getTime() + opts.leaseMs),
      })
      .where(inArray(d.id, ids))
      .returning();
  });
}

/** A pending delivery of the same invoice to the same endpoint with a lower event seq. */
function earlierPendingOfSameInvoice(tx: DbOrTx) {
  const d = webhookDeliveries;
  const earlier = alias(webhookDeliveries, "earlier");
  const sameQueue = and(
    eq(earlier.subscriptionId, d.subscriptionId),
    eq(earlier.invoiceId, d.invoiceId),
  );
  return tx
    .select({ one: sql`1` })
    .from(earlier)
    .where(and(sameQueue, lt(earlier.eventSeq, d.eventSeq), eq(earlier.status, "pending")));
}

/** Loads the endpoint and the event, sends, records. */
async function attemptDelivery(
  ctx: DeliveryContext,
  delivery: DeliveryRow,
  opts: DeliveryOptions,
): Promise<Outcome> {
  const [row] = await ctx.db
    .select({
      url: webhookSubscriptions.url,
      secret: webhookSubscriptions.secret,
      previousSecret: webhookSubscriptions.previousSecret,
      previousSecretExpiresAt: webhookSubscriptions.previousSecretExpiresAt,
      event: { id: events.id, type: events.type, data: events.data, createdAt: events.createdAt },
    })
    .from(webhookSubscriptions)
    .leftJoin(events, eq(events.id, delivery.eventId))
    .where(eq(webhookSubscriptions.id, delivery.subscriptionId));
  if (!row?.event) {
    return recordResult(ctx, delivery, { error: DELIVERY_ERRORS.eventGone }, opts, true);
  }
  const sent = await sendWebhook({
    subscriptionId: delivery.subscriptionId,
    url: row.url,
    secret: row.secret,
    // After a rotation the old secret signs too (V2 only) until it expires.
    previousSecret:
      row.previousSecretExpiresAt && row.previousSecretExpiresAt > ctx.now()
        ? row.previousSecret
        : null,
    event: row.event,
    now: ctx.now,
    timeoutMs: ctx.config.webhooks.timeoutMs,
    allowLoopback: ctx.config.webhooks.allowLoopback,
    resolve: opts.resolve,
  });
  return recordResult(ctx, delivery, sent, opts);
}

/**
 * Records one attempt. 2xx: delivered, and the endpoint's failing streak ends. Otherwise:
 * retried with backoff, or failed once the delivery is older than WEBHOOK_MAX_AGE_MS; the
 * endpoint's streak starts (if not running) and, once it is older than
 * WEBHOOK_DISABLE_AFTER_MS, the endpoint is disabled and its pending deliveries closed.
 */
async function recordResult(
  ctx: DeliveryContext,
  delivery: DeliveryRow,
  sent: SendResult,
  opts: DeliveryOptions,
  final = false,
): Promise<Outcome> {
  const now = ctx.now();
  const d = webhookDeliveries;
  const s = webhookSubscriptions;
  // Only the attempt this process claimed: a lease taken over since then is not overwritten.
  const mine = and(
    eq(d.id, delivery.id),
    eq(d.status, "pending"),
    eq(d.attempts, delivery.attempts),
  );
  // A fixed message (lib/domain/webhook-errors.ts); what the socket said goes to the log only.
  const lastError = sent.error ?? (sent.statusCode ? httpStatusError(sent.statusCode) : null);
  if (sent.detail) {
    ctx.logger.info("webhook delivery failed", {
      deliveryId: delivery.id,
      subscriptionId: delivery.subscriptionId,
      error: sent.error,
      detail: sent.detail,
    });
  }
  return withTransaction(ctx.db, async (tx) => {
    if (isDelivered(sent.statusCode)) {
      await tx
        .update(d)
        .set({
          status: "delivered",
          deliveredAt: now,
          lastStatusCode: sent.statusCode,
          lastError: null,
        })
        .where(mine);
      await tx
        .update(s)
        .set({ failingSince: null })
        .where(and(eq(s.id, delivery.subscriptionId), sql`${s.failingSince} is not null`));
      return "delivered";
    }
    const decision = final
      ? ({ status: "failed" } as const)
      : decideAfterFailure({
          attempts: delivery.attempts,
          queuedAt: delivery.createdAt,
          now,
          baseMs: ctx.config.webhooks.retryBaseMs,
          maxAgeMs: ctx.config.webhooks.maxAgeMs,
          random: opts.random ?? Math.random,
        });
    await tx
      .update(d)
      .set({
        status: decision.status,
        ...(decision.status === "pending" ? { nextAttemptAt: decision.nextAttemptAt } : {}),
        lastStatusCode: sent.statusCode ?? null,
        lastError,
      })
      .where(mine);
    const [sub] = await tx
      .update(s)
      .set({ failingSince: sql`coalesce(${s.failingSince}, ${now.toISOString()}::timestamptz)` })
      .where(and(eq(s.id, delivery.subscriptionId), isNull(s.disabledAt)))
      .returning({ failingSince: s.failingSince });
    const failingFor = sub?.failingSince ? now.getTime() - sub.failingSince.getTime() : 0;
    if (failingFor >= ctx.config.webhooks.disableAfterMs) {
      await tx.update(s).set({ disabledAt: now }).where(eq(s.id, delivery.subscriptionId));
      const days = Math.round(failingFor / 86_400_000);
      await tx
        .update(d)
        .set({ status: "failed", lastError: disabledError(days) })
        .where(and(eq(d.subscriptionId, delivery.subscriptionId), eq(d.status, "pending")));
      ctx.logger.warn("webhook disabled after continuous failures", {
        subscriptionId: delivery.subscriptionId,
        failingSince: sub?.failingSince?.toISOString(),
      });
      return "failed";
    }
    return decision.status === "failed" ? "failed" : "retrying";
  });
}

/** Runs `fn` over `items` with at most `limit` in flight; results keep the input order. */
async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  });
  await Promise.all(workers);
  return results;
}
