import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Sign-in nonces: bound to one wallet, single use, short lived. */
export const authNonces = pgTable(
  "auth_nonces",
  {
    nonce: text("nonce").primaryKey(),
    walletAddress: text("wallet_address").notNull(),
    message: text("message").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("auth_nonces_expires_at_idx").on(t.expiresAt)],
);
