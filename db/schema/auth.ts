import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/** Sign-in nonces: bound to one wallet, single use, short lived. */
export const authNonces = pgTable(
  "auth_nonces",
  {
    nonce: text("nonce").primaryKey(),
    walletAddress: text("wallet_address").notNull(),
    message: text("message").notNull(),
    expiresAt: ts("expires_at").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("auth_nonces_expires_at_idx").on(t.expiresAt)],
);

/** Session tokens signed out before they expire (by `jti`); kept until the token expires. */
export const revokedSessions = pgTable(
  "revoked_sessions",
  {
    jti: text("jti").primaryKey(),
    walletAddress: text("wallet_address").notNull(),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at").notNull(),
  },
  (t) => [index("revoked_sessions_expires_at_idx").on(t.expiresAt)],
);

/** "Sign out everywhere": the wallet's tokens issued at or before `revokedBefore` are invalid. */
export const walletSessionCutoffs = pgTable("wallet_session_cutoffs", {
  walletAddress: text("wallet_address").primaryKey(),
  revokedBefore: ts("revoked_before").notNull(),
});

/**
 * Restricted API keys (docs/decisions.md, API keys): the secret is shown once and stored as
 * its SHA-256 (a 256-bit random secret needs no slow hash); `prefix` is what lists and audit
 * entries show (`key:<prefix>`).
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    walletAddress: text("wallet_address").notNull(),
    name: text("name").notNull(),
    /** `sk_test_` or `sk_live_` and the first characters of the secret. */
    prefix: text("prefix").notNull(),
    secretHash: text("secret_hash").notNull(),
    scopes: text("scopes").array().notNull(),
    network: text("network", { enum: ["testnet", "mainnet"] }).notNull(),
    createdAt: ts("created_at").notNull(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    uniqueIndex("api_keys_secret_hash_key").on(t.secretHash),
    index("api_keys_wallet_idx").on(t.walletAddress, t.createdAt),
  ],
);
