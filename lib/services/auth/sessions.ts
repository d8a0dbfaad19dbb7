import { lt, sql } from "drizzle-orm";
import { revokedSessions, walletSessionCutoffs } from "@/db/schema";
import type { ServiceContext, SessionClaims } from "../context";
import { rowsOf } from "../db";

/**
 * Sign-out (docs/decisions.md "Authentication"). Revocations live in PostgreSQL so every
 * instance sees them: a revoked `jti` until the token expires, and per wallet a cutoff
 * (tokens issued at or before it are signed out). Each instance remembers what it read for
 * a token at most REVOCATION_CACHE_MS, so a revocation reaches every instance within that
 * time with at most one indexed lookup per token in that time; the instance that revokes
 * sees it at once.
 */
export const REVOCATION_CACHE_MS = 5000;
/** Past this many remembered tokens, the stale ones are dropped (then all, if need be). */
const CACHE_MAX = 50_000;

type Known = { wallet: string; revoked: boolean; cutoff: number | null; checkedAt: number };
const known = new Map<string, Known>();

function remember(jti: string, entry: Known) {
  if (known.size >= CACHE_MAX) {
    const stale = performance.now() - REVOCATION_CACHE_MS;
    for (const [k, v] of known) if (v.checkedAt < stale) known.delete(k);
    if (known.size >= CACHE_MAX) known.clear();
  }
  known.set(jti, entry);
}

/** True when the token was signed out, by its `jti` or by its wallet's cutoff. */
export async function isRevoked(ctx: ServiceContext, claims: SessionClaims): Promise<boolean> {
  let entry = known.get(claims.jti);
  if (!entry || performance.now() - entry.checkedAt >= REVOCATION_CACHE_MS) {
    const checkedAt = performance.now();
    const [row] = rowsOf<{ revoked: boolean; cutoff: number | string | null }>(
      await ctx.db.execute(sql`
        select
          exists(select 1 from ${revokedSessions} where ${revokedSessions.jti} = ${claims.jti})
            as revoked,
          (select (extract(epoch from ${walletSessionCutoffs.revokedBefore}) * 1000)::float8
            from ${walletSessionCutoffs}
            where ${walletSessionCutoffs.walletAddress} = ${claims.wallet}) as cutoff`),
    );
    entry = {
      wallet: claims.wallet,
      revoked: row.revoked,
      cutoff: row.cutoff === null ? null : Number(row.cutoff),
      checkedAt,
    };
    remember(claims.jti, entry);
  }
  return entry.revoked || (entry.cutoff !== null && claims.issuedAt.getTime() <= entry.cutoff);
}

/** Signs out one token (the one the request presented) until it expires. */
export async function revokeSession(ctx: ServiceContext, claims: SessionClaims): Promise<void> {
  await ctx.db
    .insert(revokedSessions)
    .values({
      jti: claims.jti,
      walletAddress: claims.wallet,
      expiresAt: claims.expiresAt,
      revokedAt: ctx.now(),
    })
    .onConflictDoNothing();
  const entry = known.get(claims.jti);
  remember(claims.jti, {
    wallet: claims.wallet,
    revoked: true,
    cutoff: entry?.cutoff ?? null,
    checkedAt: performance.now(),
  });
}

/** Signs out every token of the wallet issued at or before now (a later sign-in works). */
export async function revokeAllSessions(ctx: ServiceContext, wallet: string): Promise<void> {
  const cutoff = ctx.now();
  await ctx.db
    .insert(walletSessionCutoffs)
    .values({ walletAddress: wallet, revokedBefore: cutoff })
    .onConflictDoUpdate({
      target: walletSessionCutoffs.walletAddress,
      set: {
        revokedBefore: sql`greatest(${walletSessionCutoffs.revokedBefore}, excluded.revoked_before)`,
      },
    });
  for (const entry of known.values()) {
    if (entry.wallet === wallet) entry.cutoff = Math.max(entry.cutoff ?? 0, cutoff.getTime());
  }
}

/**
 * Housekeeping: a revoked token past its expiry fails anyway, and so does every token
 * issued before a cutoff older than a session's lifetime.
 */
export async function deleteExpiredRevocations(ctx: ServiceContext, ttlSeconds: number) {
  const now = ctx.now();
  await ctx.db.delete(revokedSessions).where(lt(revokedSessions.expiresAt, now));
  await ctx.db
    .delete(walletSessionCutoffs)
    .where(
      lt(walletSessionCutoffs.revokedBefore, new Date(now.getTime() - ttlSeconds * 1000 - 60_000)),
    );
}

/** For tests: forget what this process read. */
export function forgetRevocations() {
  known.clear();
}
