import { payableTotal } from "@/lib/domain/credit-note";
import { BusinessRuleError } from "@/lib/domain/errors";
import { transition } from "@/lib/domain/invoice-state";
import { amountDue, canonicalAmount, trimAmount } from "@/lib/domain/money";
import { type LedgerSource, ledgerSourceFor } from "@/lib/ledger-sources";
import type { AssetRef } from "@/lib/stellar/assets";
import { assetFor } from "@/lib/stellar/assets";
import { viaLedger } from "@/lib/stellar/errors";
import {
  cheapestPath,
  cheapestPerAsset,
  NO_PAYMENT_PATH,
  type PathAsset,
  type PaymentPath,
  sameAsset,
  sendMaxFor,
} from "@/lib/stellar/paths";
import type { ServiceContext } from "../context";
import { networkName } from "../invoices/network";
import { getLiveInvoice, type InvoiceRow } from "../invoices/store";
import { assertLinkPayable } from "../links/links";
import { type QuoteRow, quoteFor } from "./quotes";
import { assertRecipientReceives } from "./recipient-readiness";

/** A priced path: what the payer sends and the most the transaction may take. */
export type PathPayment = Omit<PaymentPath, "destAmount"> & { sendMax: string };

/**
 * The amount the freelancer must receive now: the amount due, or for a fiat-priced invoice the
 * asset amount of the live quote (docs/decisions.md, Fiat pricing).
 */
export async function amountToReceive(
  ctx: ServiceContext,
  invoice: InvoiceRow,
): Promise<{ due: string; quote: QuoteRow | null }> {
  const quote = invoice.priceCurrency ? await quoteFor(ctx, invoice) : null;
  const due = quote
    ? canonicalAmount(quote.assetAmount)
    : amountDue(payableTotal(invoice), invoice.amountPaid);
  return { due, quote };
}

const priced = (p: PaymentPath, slippageBps: number): PathPayment => ({
  sendAsset: p.sendAsset,
  sourceAmount: p.sourceAmount,
  sendMax: sendMaxFor(p.sourceAmount, slippageBps),
  path: p.path,
});

/**
 * The path for paying `due` of `asset` with `sendAsset` (docs/decisions.md, Path payments):
 * null when sendAsset is the invoice's asset (a plain payment); 400 NO_PAYMENT_PATH when
 * Horizon knows none.
 */
export async function pathPaymentFor(
  ctx: ServiceContext,
  source: LedgerSource,
  opts: { sendAsset: PathAsset | undefined; asset: AssetRef; due: string },
): Promise<PathPayment | null> {
  if (!opts.sendAsset || sameAsset(opts.sendAsset, opts.asset)) return null;
  const paths = await viaLedger(() =>
    source.strictReceivePaths({
      source: [opts.sendAsset as PathAsset],
      destAsset: opts.asset,
      destAmount: opts.due,
    }),
  );
  const best = cheapestPath(paths, opts.sendAsset);
  if (!best) throw new BusinessRuleError(NO_PAYMENT_PATH);
  return priced(best, ctx.config.pathSlippageBps);
}

export type PayOptions = {
  invoiceId: string;
  amount: string;
  asset: AssetRef;
  options: PathPayment[];
};

/**
 * What the payer's account could pay the amount due with (GET .../pay-options): one entry per
 * asset it holds and can afford, priced by Horizon's strict-receive paths from the account,
 * the invoice's own asset first. Every option delivers the invoice's asset to the recipient,
 * so a recipient that cannot receive it gets pay-intent's 400 instead of options that would
 * all fail; a payment that would create the recipient's account offers only the plain XLM
 * payment, never a path (docs/decisions.md, Path payments). Reads only: no status change.
 */
export async function payOptions(
  ctx: ServiceContext,
  invoiceId: string,
  account: string,
): Promise<PayOptions> {
  const invoice = await getLiveInvoice(ctx.db, invoiceId);
  assertLinkPayable(invoice, ctx.now());
  transition(invoice.status, "payIntent"); // 400 when not payable
  const network = networkName(invoice.networkPassphrase);
  const source = ledgerSourceFor(ctx.config, network);
  const asset = assetFor(ctx.config, network, invoice.currency);
  const { due } = await amountToReceive(ctx, invoice);
  const [recipient, paths] = await viaLedger(() =>
    Promise.all([
      source.account(invoice.freelancerWallet),
      source.strictReceivePaths({ source: account, destAsset: asset, destAmount: due }),
    ]),
  );
  const { createAccount } = assertRecipientReceives(recipient, invoice, asset, due);
  const usable = cheapestPerAsset(paths).filter(
    (p) => !createAccount || sameAsset(p.sendAsset, asset),
  );
  const options = usable.map((p) =>
    sameAsset(p.sendAsset, asset)
      ? { sendAsset: p.sendAsset, sourceAmount: due, sendMax: due, path: [] }
      : priced(p, ctx.config.pathSlippageBps),
  );
  options.sort(
    (a, b) => Number(sameAsset(b.sendAsset, asset)) - Number(sameAsset(a.sendAsset, asset)),
  );
  return { invoiceId, amount: trimAmount(due), asset, options };
}
