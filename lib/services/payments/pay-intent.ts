import { BusinessRuleError, NotFoundError, ValidationError } from "@/lib/domain/errors";
import { type InvoiceStatus, transition } from "@/lib/domain/invoice-state";
import { amountDue, canonicalAmount, toStroops, trimAmount } from "@/lib/domain/money";
import { OWN_INVOICE_MESSAGE } from "@/lib/domain/payment-match";
import { type AssetRef, assetFor } from "@/lib/stellar/assets";
import { ledgerError, viaHorizon } from "@/lib/stellar/errors";
import { horizonFor } from "@/lib/stellar/horizon";
import { balanceOf, fetchAccount, fetchBaseFee } from "@/lib/stellar/read";
import { buildSep7PayUri, sep7Signer } from "@/lib/stellar/sep7";
import { buildPaymentTransaction, PAYMENT_TIMEOUT_SECONDS } from "@/lib/stellar/transactions";
import type { ServiceContext } from "../context";
import { withTransaction } from "../db";
import { ANONYMOUS_ACTOR, applyTransition } from "../invoices/lifecycle";
import { networkName } from "../invoices/network";
import { getLiveInvoice, lockLiveInvoice } from "../invoices/store";
import { LINK_NOT_FOUND, linkStatus } from "../links/links";
import { type QuoteRow, quoteFor } from "./quotes";

export const NETWORK_DOES_NOT_MATCH = "Selected wallet network does not match";
export const OWN_INVOICE = OWN_INVOICE_MESSAGE;
export const SENDER_NOT_FOUND =
  "Sender wallet is not activated on this network. It must be funded first.";

export type PaymentIntent = {
  invoiceId: string;
  transactionXdr: string | null;
  sep7Uri: string;
  amount: string;
  asset: AssetRef;
  memo: string;
  networkPassphrase: string;
  timeout: number;
  destination: string;
  status: InvoiceStatus;
  /** Fiat-priced invoices: the locked quote the amount comes from (docs/decisions.md, Fiat pricing). */
  quote: QuoteRow | null;
};

/**
 * Builds what a payer needs: always the SEP-7 URI, and with a sender the unsigned
 * transaction, both for the amount due. Checks on the ledger first that the accounts exist and can hold the asset,
 * answering the ledger messages (lib/stellar/errors.ts). Moves PENDING/FAILED to PROCESSING (audit UPDATED).
 */
export async function createPaymentIntent(
  ctx: ServiceContext,
  invoiceId: string,
  input: { sender?: string; networkPassphrase: string },
): Promise<PaymentIntent> {
  const invoice = await getLiveInvoice(ctx.db, invoiceId);
  // An expired link cannot start a new payment (one already signed is still accepted).
  if (invoice.kind === "LINK" && linkStatus(invoice, ctx.now()) === "EXPIRED") {
    throw new NotFoundError(LINK_NOT_FOUND);
  }
  if (input.networkPassphrase !== invoice.networkPassphrase) {
    throw new BusinessRuleError(NETWORK_DOES_NOT_MATCH, {
      networkPassphrase: `This invoice is payable on '${invoice.networkPassphrase}'`,
    });
  }
  transition(invoice.status, "payIntent"); // 400 when not payable
  if (input.sender && input.sender === invoice.freelancerWallet) {
    throw new BusinessRuleError(OWN_INVOICE);
  }
  const network = networkName(invoice.networkPassphrase);
  const horizon = horizonFor(ctx.config, network);
  const asset = assetFor(ctx.config, network, invoice.currency);
  // The amount due: what is left after earlier partial payments (docs/decisions.md,
  // Payment intent and SEP-7); for a fiat-priced invoice, the asset amount of a locked quote
  // of the fiat amount due (a 503 and no quote without a fresh price).
  const quote = invoice.priceCurrency ? await quoteFor(ctx, invoice) : null;
  const due = quote
    ? canonicalAmount(quote.assetAmount)
    : amountDue(invoice.total, invoice.amountPaid);
  const amount = trimAmount(due);

  const [recipient, sender, baseFee] = await viaHorizon(() =>
    Promise.all([
      fetchAccount(horizon, invoice.freelancerWallet),
      input.sender ? fetchAccount(horizon, input.sender) : Promise.resolve(null),
      input.sender ? fetchBaseFee(horizon) : Promise.resolve(100),
    ]),
  );
  const createAccount =
    !recipient && invoice.kind === "LINK" && invoice.activateNewAccounts && asset.issuer === null;
  if (!recipient && !createAccount) throw ledgerError("op_no_destination");
  if (recipient && asset.issuer && !balanceOf(recipient, asset)) throw ledgerError("op_no_trust");

  let transactionXdr: string | null = null;
  if (input.sender) {
    if (!sender) throw new ValidationError(SENDER_NOT_FOUND);
    const line = balanceOf(sender, asset);
    if (asset.issuer && !line) throw ledgerError("op_src_no_trust");
    if (!line || toStroops(line.balance) < toStroops(due)) {
      throw ledgerError("op_underfunded");
    }
    transactionXdr = buildPaymentTransaction({
      source: { id: sender.id, sequence: sender.sequence },
      destination: invoice.freelancerWallet,
      asset,
      amount,
      memo: invoice.invoiceNumber,
      networkPassphrase: invoice.networkPassphrase,
      baseFee,
      createAccount,
      now: ctx.now(),
      validUntil: quote?.expiresAt,
    }).xdr;
  }

  const { status } = await withTransaction(ctx.db, async (tx) =>
    applyTransition(tx, await lockLiveInvoice(tx, invoiceId), "payIntent", {
      actor: input.sender ?? ANONYMOUS_ACTOR,
      at: ctx.now(),
    }),
  );

  return {
    invoiceId,
    transactionXdr,
    sep7Uri: buildSep7PayUri({
      destination: invoice.freelancerWallet,
      amount,
      asset,
      memo: invoice.invoiceNumber,
      networkPassphrase: invoice.networkPassphrase,
      signer: sep7Signer(ctx.config),
    }),
    amount,
    asset,
    memo: invoice.invoiceNumber,
    networkPassphrase: invoice.networkPassphrase,
    timeout: PAYMENT_TIMEOUT_SECONDS,
    destination: invoice.freelancerWallet,
    status,
    quote,
  };
}
