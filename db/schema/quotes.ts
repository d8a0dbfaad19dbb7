import { index, numeric, pgTable, text } from "drizzle-orm/pg-core";
import { CURRENCIES, PRICE_CURRENCIES } from "../../lib/domain/money";
import { amount, idColumn, ts } from "./columns";
import { invoiceIdRef } from "./invoices";

/**
 * A locked exchange rate for a fiat-priced invoice (docs/decisions.md, Fiat pricing): the
 * amount due in `priceCurrency` (`fiatAmount`) is `assetAmount` of `asset` until `expiresAt`.
 * Each pay-intent reuses the live quote or locks a new one.
 */
export const quotes = pgTable(
  "quotes",
  {
    id: idColumn(),
    invoiceId: invoiceIdRef(),
    priceCurrency: text("price_currency", { enum: PRICE_CURRENCIES }).notNull(),
    asset: text("asset", { enum: CURRENCIES }).notNull(),
    /** priceCurrency per unit of asset. */
    rate: numeric("rate", { precision: 30, scale: 12 }).notNull(),
    assetAmount: amount("asset_amount").notNull(),
    fiatAmount: numeric("fiat_amount", { precision: 18, scale: 2 }).notNull(),
    source: text("source").notNull(),
    /** When the price behind `rate` was fetched. */
    rateAt: ts("rate_at").notNull(),
    createdAt: ts("created_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [index("quotes_invoice_idx").on(t.invoiceId, t.createdAt)],
);
