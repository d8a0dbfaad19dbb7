import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { type PostalAddress, TAX_SCHEMES } from "../../lib/domain/address";
import { LANGUAGES } from "../../lib/i18n/languages";
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
    /** The client's tax identity and address (docs/decisions.md, Tax identities). */
    taxId: text("tax_id"),
    taxScheme: text("tax_scheme", { enum: TAX_SCHEMES }),
    postalAddress: jsonb("postal_address").$type<PostalAddress>(),
    isBusiness: boolean("is_business"),
    /** The language of the client's documents; null: the profile's (docs/decisions.md, Languages). */
    language: text("language", { enum: LANGUAGES }),
    /** The buyer reference its invoices take by default (BT-10, e.g. a Leitweg-ID). */
    buyerReference: text("buyer_reference"),
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
