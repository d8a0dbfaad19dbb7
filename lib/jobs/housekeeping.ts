import { lt } from "drizzle-orm";
import { rateLimitCounters } from "@/db/schema";
import { deleteExpiredNonces } from "@/lib/services/auth/nonce";
import { deleteExpiredRevocations } from "@/lib/services/auth/sessions";
import { SESSION_TTL_SECONDS } from "@/lib/services/auth/token";
import type { ServiceContext } from "@/lib/services/context";
import { deleteExpiredIdempotencyKeys } from "@/lib/services/idempotency";
import { compactPiledStats } from "@/lib/services/invoices/invoice-stats";
import { deleteOldPortalRows } from "@/lib/services/portal/session";
import { expireDueQuotes } from "@/lib/services/quotes/expire";
import { deleteOldWebhookRecords } from "@/lib/webhooks/retention";

/**
 * Drops rows that can never be used again (expired nonces, revocations of expired sessions,
 * idempotency keys, old counters, spent portal links and sessions)
 * and webhook deliveries and events past their retention (30 days); expires the quotes whose
 * validUntil has ended (also done on read: docs/decisions.md, Quotes); folds the statistics
 * rows of wallets that write and never read them (docs/decisions.md, Statistics at scale).
 */
export async function housekeeping(ctx: ServiceContext): Promise<void> {
  const now = ctx.now();
  await deleteExpiredNonces(ctx);
  await deleteExpiredRevocations(ctx, SESSION_TTL_SECONDS);
  await deleteExpiredIdempotencyKeys(ctx.db, now);
  // The longest window is an hour; a counter untouched for two is dead.
  await ctx.db
    .delete(rateLimitCounters)
    .where(lt(rateLimitCounters.windowStart, new Date(now.getTime() - 2 * 3600_000)));
  await deleteOldPortalRows(ctx);
  const quotes = await expireDueQuotes(ctx);
  if (quotes.expired) ctx.logger.info("quotes expired", quotes);
  const compacted = await compactPiledStats(ctx);
  if (compacted) ctx.logger.info("statistics rows folded", { wallets: compacted });
  const removed = await deleteOldWebhookRecords(ctx.db, now);
  if (removed.deliveries || removed.events) ctx.logger.info("webhook log retention", removed);
}
