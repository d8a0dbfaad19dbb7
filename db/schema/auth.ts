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
