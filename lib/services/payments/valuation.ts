import type { DbOrTx } from "@/db/client";
import {
  exactValueAt,
  fiat2,
  REPORTING_CURRENCY,
  valueAgainstQuote,
  valueAt,
} from "@/lib/domain/fiat";
import { CURRENCIES, type Currency, type PriceCurrency } from "@/lib/domain/money";
import type { ClassifiedOperation } from "@/lib/domain/payment-match";
import { isFreshEnough, MAX_QUOTE_AGE_MS } from "@/lib/prices/pairs";
import { getRates, knownRate } from "@/lib/prices/rates";
import type { ServiceContext } from "../context";
import type { InvoiceRow } from "../invoices/store";
import { getProfile } from "../profile/profile";
import { latestQuote, quoteLiveAt } from "./quotes";

// What a recorded payment is worth (docs/decisions.md, Fiat pricing): on a fiat-priced invoice
// the value that counts towards amountPaid (`priceValue`), and on every payment its value in
// the reporting currency for the books (`fiatValue`). Recording runs inside a database
// transaction, so rates come from the shared cache only (`knownRate`); `warmRates` refreshes
// the cache before, outside any transaction.

export type PaymentValues = {
  fiatCurrency: PriceCurrency | null;
  fiatValue: string | null;
  rate: string | null;
  rateSource: string | null;
  rateAt: Date | null;
  priceValue: string | null;
  priceRate: string | null;
  quoteId: string | null;
  paidLate: boolean;
};

const NOTHING: PaymentValues = {
  fiatCurrency: null,
  fiatValue: null,
  rate: null,
  rateSource: null,
  rateAt: null,
  priceValue: null,
  priceRate: null,
  quoteId: null,
  paidLate: false,
};

/**
 * Refreshes the cached rates (each source at most once a minute, shared by every instance),
 * so that recording values payments at the current price. Never fails: recording goes on
 * with what the cache knows.
 */
export async function warmRates(ctx: Pick<ServiceContext, "db" | "config" | "now" | "logger">) {
  try {
    // One pair per fetched price: XLM-USD, XLM-EUR and EUR-USD (through EURC-USD).
    await getRates(ctx, [
      { base: "XLM", quote: "USD" },
      { base: "XLM", quote: "EUR" },
      { base: "EURC", quote: "USD" },
    ]);
  } catch (err) {
    ctx.logger.warn("rates not refreshed before recording", {
      reason: err instanceof Error ? err.message : String(err),
    });
  }
}

const isRateAsset = (code: string): code is Currency =>
  (CURRENCIES as readonly string[]).includes(code);

/**
 * The values of the operations about to be recorded for `invoice`, by operation index.
 * - On a fiat-priced invoice, an applied operation is valued at the quote live when its ledger
 *   closed (`closedAt`); without one, at the current known rate and `paidLate` (the newest
 *   quote's rate when no price is known at all). Unapplied operations get no priceValue.
 * - Every operation of XLM, USDC or EURC gets its value in the reporting currency: the same as
 *   priceValue when the invoice is priced in it, else at the current known rate.
 */
export async function valueOperations(
  db: DbOrTx,
  ctx: Pick<ServiceContext, "config" | "now">,
  invoice: InvoiceRow,
  operations: readonly ClassifiedOperation[],
  closedAt: Date,
): Promise<Map<number, PaymentValues>> {
  const rates = { db, config: ctx.config, now: ctx.now };
  const values = new Map<number, PaymentValues>();
  const priceCurrency = invoice.priceCurrency;
  // The owner's reporting currency (docs/decisions.md, Profile), USD without a profile.
  const reporting =
    (await getProfile(db, invoice.freelancerWallet))?.reportingCurrency ?? REPORTING_CURRENCY;
  const quote = priceCurrency ? await quoteLiveAt(db, invoice.id, closedAt) : undefined;
  const lateRate =
    priceCurrency && !quote
      ? ((await knownRate(
          rates,
          { base: invoice.currency, quote: priceCurrency },
          MAX_QUOTE_AGE_MS,
        )) ?? (await fallbackQuoteRate(db, invoice.id, ctx.now())))
      : undefined;

  for (const op of operations) {
    let v: PaymentValues = { ...NOTHING };
    if (priceCurrency && op.applied) {
      if (quote) {
        v = {
          ...v,
          priceValue: valueAgainstQuote(op.amount, quote),
          priceRate: quote.rate,
          quoteId: quote.id,
        };
      } else if (lateRate) {
        v = {
          ...v,
          priceValue: exactValueAt(op.amount, lateRate.rate),
          priceRate: lateRate.rate,
          paidLate: true,
        };
      }
    }
    if (priceCurrency === reporting && v.priceValue !== null) {
      v = {
        ...v,
        fiatCurrency: reporting,
        fiatValue: fiat2(v.priceValue),
        rate: v.priceRate,
        rateSource: quote ? `quote:${quote.id}` : (lateRate?.source ?? null),
        rateAt: quote ? quote.rateAt : (lateRate?.at ?? null),
      };
    } else if (isRateAsset(op.assetCode) && op.unappliedReason !== "wrong_asset") {
      const r = await knownRate(rates, { base: op.assetCode, quote: reporting }, MAX_QUOTE_AGE_MS);
      if (r) {
        v = {
          ...v,
          fiatCurrency: reporting,
          fiatValue: fiat2(valueAt(op.amount, r.rate)),
          rate: r.rate,
          rateSource: r.source,
          rateAt: r.at,
        };
      }
    }
    values.set(op.operationIndex, v);
  }
  return values;
}

/**
 * No fresh price known (the source is down): the newest quote's rate when its price is no
 * older than a quote may use (5 minutes); otherwise nothing, and the payment is `unpriced`.
 */
async function fallbackQuoteRate(db: DbOrTx, invoiceId: string, now: Date) {
  const q = await latestQuote(db, invoiceId);
  if (!q || !isFreshEnough(q.rateAt, now, MAX_QUOTE_AGE_MS)) return undefined;
  return { rate: q.rate, source: `quote:${q.id}`, at: q.rateAt };
}
