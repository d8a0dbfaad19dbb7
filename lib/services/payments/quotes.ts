import { and, desc, eq, gt, lte } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { quotes } from "@/db/schema";
import { ValidationError } from "@/lib/domain/errors";
import { fiat2, invoiceAmountDue, quoteAssetAmount } from "@/lib/domain/fiat";
import type { PriceCurrency } from "@/lib/domain/money";
import { MAX_AMOUNT, toStroops } from "@/lib/domain/money";
import { newId } from "@/lib/ids";
import { getQuoteRate } from "@/lib/prices/rates";
import type { ServiceContext } from "../context";
import { withTransaction } from "../db";
import { type InvoiceRow, lockLiveInvoice } from "../invoices/store";

// Quotes (docs/decisions.md, Fiat pricing): a pay-intent on an invoice priced in USD or EUR
// locks the amount due at a rate for `quoteTtlMinutes`; the payment is valued at the quote
// that was live when its ledger closed.

export type QuoteRow = typeof quotes.$inferSelect;

/** The amount due converts to more of the asset than one payment can carry. */
export const QUOTE_TOO_LARGE = "The amount due is too large to pay in this asset";

/** The fiat amount due of a fiat-priced invoice, 2 decimals. */
export const fiatDue = (
  invoice: Pick<InvoiceRow, "total" | "amountPaid" | "priceCurrency" | "amountCredited">,
): string => fiat2(invoiceAmountDue(invoice));

/**
 * Ledger close times are whole seconds and the network's clock is not ours: a quote created
 * up to this long after a ledger's close time was live for it.
 */
export const QUOTE_CLOCK_GRACE_MS = 5000;

/**
 * The newest quote of the invoice live at `at` (created by then, give or take
 * QUOTE_CLOCK_GRACE_MS, and expiring after it).
 */
export async function quoteLiveAt(
  db: DbOrTx,
  invoiceId: string,
  at: Date,
): Promise<QuoteRow | undefined> {
  const latestCreation = new Date(at.getTime() + QUOTE_CLOCK_GRACE_MS);
  const [row] = await db
    .select()
    .from(quotes)
    .where(
      and(
        eq(quotes.invoiceId, invoiceId),
        lte(quotes.createdAt, latestCreation),
        gt(quotes.expiresAt, at),
      ),
    )
    .orderBy(desc(quotes.createdAt))
    .limit(1);
  return row;
}

/** True while the quote is for the invoice's amount due as it is now (no payment since). */
export const coversAmountDue = (
  q: Pick<QuoteRow, "fiatAmount" | "priceCurrency">,
  invoice: Pick<InvoiceRow, "total" | "amountPaid" | "priceCurrency" | "amountCredited">,
): boolean => q.priceCurrency === invoice.priceCurrency && q.fiatAmount === fiatDue(invoice);

/**
 * The quote a payer may be shown now (the status endpoint, the checkout page): the live one
 * while it still covers the amount due. A payment since it was locked changed the amount due,
 * so that quote is over for showing (its `assetAmount` would overpay); the next pay-intent
 * locks a new one (docs/decisions.md, Fiat pricing). It still values a payment whose ledger
 * closed while it was live (`quoteLiveAt`).
 */
export async function currentQuote(
  db: DbOrTx,
  invoice: Pick<InvoiceRow, "id" | "total" | "amountPaid" | "priceCurrency" | "amountCredited">,
  at: Date,
): Promise<QuoteRow | undefined> {
  const live = await quoteLiveAt(db, invoice.id, at);
  return live && coversAmountDue(live, invoice) ? live : undefined;
}

/** The invoice's newest quote, live or not. */
export async function latestQuote(db: DbOrTx, invoiceId: string): Promise<QuoteRow | undefined> {
  const [row] = await db
    .select()
    .from(quotes)
    .where(eq(quotes.invoiceId, invoiceId))
    .orderBy(desc(quotes.createdAt))
    .limit(1);
  return row;
}

/**
 * The quote a pay-intent uses: the live one when it still covers the amount due (so a payer
 * who asks again gets the same amount and deadline), else a new one at a rate no older than 5
 * minutes (503 `Price feed temporarily unavailable` otherwise, and no quote). The rate is read
 * before the invoice is locked (it may fetch); the lock then makes concurrent pay-intents
 * agree on one quote.
 */
export async function quoteFor(ctx: ServiceContext, invoice: InvoiceRow): Promise<QuoteRow> {
  const priceCurrency = invoice.priceCurrency as PriceCurrency;
  const now = ctx.now();
  const reusable = (q: QuoteRow | undefined, due: string) =>
    q && q.fiatAmount === due && q.asset === invoice.currency && q.priceCurrency === priceCurrency;
  const live = await quoteLiveAt(ctx.db, invoice.id, now);
  if (reusable(live, fiatDue(invoice))) return live as QuoteRow;

  const rate = await getQuoteRate(ctx, invoice.currency, priceCurrency);
  return withTransaction(ctx.db, async (tx) => {
    const locked = await lockLiveInvoice(tx, invoice.id);
    const due = fiatDue(locked);
    const again = await quoteLiveAt(tx, invoice.id, now);
    if (reusable(again, due)) return again as QuoteRow;
    const assetAmount = quoteAssetAmount(due, rate.rate);
    if (toStroops(assetAmount) > toStroops(MAX_AMOUNT)) {
      throw new ValidationError(QUOTE_TOO_LARGE, {
        amount: `${due} ${priceCurrency} is more than ${MAX_AMOUNT} ${invoice.currency} can carry`,
      });
    }
    const [created] = await tx
      .insert(quotes)
      .values({
        id: newId(),
        invoiceId: invoice.id,
        priceCurrency,
        asset: invoice.currency,
        rate: rate.rate,
        assetAmount,
        fiatAmount: due,
        source: rate.source,
        rateAt: rate.at,
        createdAt: now,
        expiresAt: new Date(now.getTime() + locked.quoteTtlMinutes * 60_000),
      })
      .returning();
    return created;
  });
}
