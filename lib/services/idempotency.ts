import { and, eq, lt } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";
import { ConflictError, ValidationError } from "@/lib/domain/errors";

export const KEY_REUSED = "Idempotency-Key was already used with a different request";
export const KEY_IN_PROGRESS = "A request with this Idempotency-Key is still being processed";

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** A claim left `in_progress` this long (a crashed instance) may be taken over. */
const STALE_CLAIM_MS = 2 * 60 * 1000;

export type StoredResponse = { status: number; body: unknown };

export type Claim = { kind: "claimed" } | { kind: "replay"; response: StoredResponse };

/**
 * Claims (scope, key) for this request. A finished first request is replayed (24 hours);
 * one still running is 409; the same key with another body is 400 (Stripe's rules).
 */
export async function claimIdempotencyKey(
  db: DbOrTx,
  opts: { scope: string; key: string; requestHash: string; now: Date },
): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [inserted] = await db
      .insert(idempotencyKeys)
      .values({ ...opts, state: "in_progress", createdAt: opts.now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted) return { kind: "claimed" };
    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, opts.scope), eq(idempotencyKeys.key, opts.key)));
    if (!row) continue;
    const age = opts.now.getTime() - row.createdAt.getTime();
    const stale = age > IDEMPOTENCY_TTL_MS || (row.state === "in_progress" && age > STALE_CLAIM_MS);
    if (stale) {
      await db
        .delete(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.scope, opts.scope),
            eq(idempotencyKeys.key, opts.key),
            eq(idempotencyKeys.createdAt, row.createdAt),
          ),
        );
      continue;
    }
    if (row.requestHash !== opts.requestHash) {
      throw new ValidationError(KEY_REUSED);
    }
    if (row.state === "in_progress") {
      throw new ConflictError(KEY_IN_PROGRESS);
    }
    return {
      kind: "replay",
      response: { status: row.responseStatus ?? 200, body: row.responseBody },
    };
  }
  throw new ConflictError(KEY_IN_PROGRESS);
}

/** Stores the first response; 5xx and 429 answers release the key so a retry runs again. */
export async function finishIdempotencyKey(
  db: DbOrTx,
  opts: { scope: string; key: string; response: StoredResponse },
): Promise<void> {
  const where = and(eq(idempotencyKeys.scope, opts.scope), eq(idempotencyKeys.key, opts.key));
  if (opts.response.status >= 500 || opts.response.status === 429) {
    await db.delete(idempotencyKeys).where(where);
    return;
  }
  await db
    .update(idempotencyKeys)
    .set({ state: "done", responseStatus: opts.response.status, responseBody: opts.response.body })
    .where(where);
}

export async function deleteExpiredIdempotencyKeys(db: DbOrTx, now: Date): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)));
}
