import { lt } from "drizzle-orm";
import { rateLimitCounters } from "@/db/schema";
import { deleteExpiredNonces } from "@/lib/services/auth/nonce";
import type { ServiceContext } from "@/lib/services/context";
import { deleteExpiredIdempotencyKeys } from "@/lib/services/idempotency";

/** Drops rows that can never be used again: expired nonces, idempotency keys, old counters. */
export async function housekeeping(ctx: ServiceContext): Promise<void> {
  const now = ctx.now();
  await deleteExpiredNonces(ctx);
  await deleteExpiredIdempotencyKeys(ctx.db, now);
  // The longest window is an hour; a counter untouched for two is dead.
  await ctx.db
    .delete(rateLimitCounters)
    .where(lt(rateLimitCounters.windowStart, new Date(now.getTime() - 2 * 3600_000)));
}
