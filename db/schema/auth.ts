import { index, pgTable, text } from "drizzle-orm/pg-core";
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
