import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { idColumn, ts } from "./columns";

/** Saved clients: unique per (owner wallet, lower-cased trimmed email). */
export const clients = pgTable(
  "clients",
  {
    id: idColumn(),
    freelancerWallet: text("freelancer_wallet").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    company: text("company"),
    address: text("address"),
    isFavorite: boolean("is_favorite").notNull().default(false),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("clients_owner_email_key").on(t.freelancerWallet, t.email),
    index("clients_owner_order_idx").on(
      t.freelancerWallet,
      sql`${t.isFavorite} desc`,
      sql`${t.createdAt} desc`,
    ),
  ],
);
