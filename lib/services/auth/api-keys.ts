import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { apiKeys } from "@/db/schema";
import type { ApiKeyScope } from "@/lib/domain/api-key-scopes";
import {
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from "@/lib/domain/errors";
import { isId, newId } from "@/lib/ids";
import type { NetworkName } from "@/lib/stellar/networks";
import type { ApiKeyClaims, AuthedContext, ServiceContext } from "../context";
import { INVALID_TOKEN } from "./messages";

/**
 * Restricted API keys (docs/decisions.md, API keys). A key is `sk_test_` or `sk_live_` and 32
 * random bytes in base64url; only its SHA-256 is stored (a 256-bit random secret cannot be
 * guessed, so a slow password hash would only cost every request time). The secret is shown
 * once, at creation; lists show the prefix (the mode and the first 8 characters).
 */

export const API_KEY_NOT_FOUND = "API key not found";
export const TOO_MANY_KEYS = "API key limit reached";
/** Live keys per wallet: enough for one per integration, small enough to list on one page. */
export const MAX_KEYS_PER_WALLET = 25;
/** `last_used_at` is written at most this often per key (not on every request). */
const LAST_USED_EVERY_MS = 60_000;
/** Like sessions (lib/services/auth/sessions.ts): a revocation reaches every instance within this. */
export const KEY_CACHE_MS = 5000;

const MODE: Record<NetworkName, string> = { testnet: "sk_test_", mainnet: "sk_live_" };
const KEY_PATTERN = /^sk_(test|live)_[A-Za-z0-9_-]{43}$/;

/** True when a Bearer credential is an API key rather than a session token. */
export const looksLikeApiKey = (credential: string) => credential.startsWith("sk_");

const hashOf = (secret: string) => createHash("sha256").update(secret).digest("hex");

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function createApiKey(
  ctx: AuthedContext,
  input: { name: string; scopes: ApiKeyScope[]; network?: NetworkName },
): Promise<{ key: ApiKeyRow; secret: string }> {
  const network = input.network ?? "testnet";
  const secret = MODE[network] + randomBytes(32).toString("base64url");
  const row = {
    id: newId(),
    walletAddress: ctx.wallet,
    name: input.name,
    prefix: secret.slice(0, MODE[network].length + 8),
    secretHash: hashOf(secret),
    scopes: [...new Set(input.scopes)],
    network,
    createdAt: ctx.now(),
  };
  const inserted = await ctx.db.transaction(async (tx) => {
    // One wallet's creations queue here, so the count below cannot be raced past.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`keys:${ctx.wallet}`}, 0))`,
    );
    const [{ count }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(apiKeys)
      .where(and(eq(apiKeys.walletAddress, ctx.wallet), isNull(apiKeys.revokedAt)));
    if (count >= MAX_KEYS_PER_WALLET) {
      throw new ValidationError(TOO_MANY_KEYS, {
        keys: `at most ${MAX_KEYS_PER_WALLET} active keys per wallet; revoke one first`,
      });
    }
    const [created] = await tx.insert(apiKeys).values(row).returning();
    return created;
  });
  return { key: inserted, secret };
}

/** The wallet's keys, revoked ones included (they show when they were revoked), newest first. */
export async function listApiKeys(ctx: AuthedContext): Promise<ApiKeyRow[]> {
  return ctx.db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.walletAddress, ctx.wallet))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/**
 * Revokes one of the wallet's keys (again: a no-op). Another wallet's key is 403
 * `Unauthorized` and stays as it is (docs/decisions.md, Ownership); an unknown id, 404.
 */
export async function revokeApiKey(ctx: AuthedContext, id: string): Promise<ApiKeyRow> {
  if (!isId(id)) throw new NotFoundError(API_KEY_NOT_FOUND);
  const [row] = await ctx.db
    .update(apiKeys)
    .set({
      revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${ctx.now().toISOString()}::timestamptz)`,
    })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.walletAddress, ctx.wallet)))
    .returning();
  if (!row) {
    const [other] = await ctx.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.id, id))
      .limit(1);
    throw other ? new ForbiddenError("Unauthorized") : new NotFoundError(API_KEY_NOT_FOUND);
  }
  for (const [hash, entry] of known) if (entry.claims?.id === id) known.delete(hash);
  return row;
}

type Known = { claims: ApiKeyClaims | null; checkedAt: number; usedAt: number };
const known = new Map<string, Known>();
const CACHE_MAX = 10_000;

/**
 * The key behind a Bearer credential, or 401 `Invalid or expired token` (unknown, malformed or
 * revoked: a caller learns nothing about which). Each instance remembers a lookup at most
 * KEY_CACHE_MS, and writes `last_used_at` at most once a minute per key.
 */
export async function verifyApiKey(ctx: ServiceContext, secret: string): Promise<ApiKeyClaims> {
  if (!KEY_PATTERN.test(secret)) throw new UnauthorizedError(INVALID_TOKEN);
  const hash = hashOf(secret);
  const now = performance.now();
  let entry = known.get(hash);
  if (!entry || now - entry.checkedAt >= KEY_CACHE_MS) {
    const [row] = await ctx.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.secretHash, hash), isNull(apiKeys.revokedAt)))
      .limit(1);
    const claims: ApiKeyClaims | null = row
      ? {
          id: row.id,
          wallet: row.walletAddress,
          prefix: row.prefix,
          scopes: row.scopes as ApiKeyScope[],
          network: row.network,
        }
      : null;
    if (known.size >= CACHE_MAX) known.clear();
    entry = { claims, checkedAt: now, usedAt: entry?.usedAt ?? -Infinity };
    known.set(hash, entry);
  }
  if (!entry.claims) throw new UnauthorizedError(INVALID_TOKEN);
  if (now - entry.usedAt >= LAST_USED_EVERY_MS) {
    entry.usedAt = now;
    await ctx.db
      .update(apiKeys)
      .set({ lastUsedAt: ctx.now() })
      .where(eq(apiKeys.id, entry.claims.id));
  }
  return entry.claims;
}

/** For tests: forget what this process read. */
export function forgetApiKeys() {
  known.clear();
}
