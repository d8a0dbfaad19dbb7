import { eq } from "drizzle-orm";
import { invoices, payments, refunds } from "@/db/schema";
import {
  BusinessRuleError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from "@/lib/domain/errors";
import { NOT_REFUNDABLE_OFF_LEDGER } from "@/lib/domain/manual-payment";
import { parseAmount, toStroops, trimAmount } from "@/lib/domain/money";
import { refundAmount, refundMemo } from "@/lib/domain/refund";
import { isId, newId } from "@/lib/ids";
import { ledgerSourceFor } from "@/lib/ledger-sources";
import type { AssetRef } from "@/lib/stellar/assets";
import { ledgerError, viaLedger } from "@/lib/stellar/errors";
import { splitAddress } from "@/lib/stellar/muxed";
import { balanceOf } from "@/lib/stellar/read";
import { buildSep7PayUri, sep7Signer } from "@/lib/stellar/sep7";
import { buildRefundTransfer, isContractAddress, simulateAndAssemble } from "@/lib/stellar/soroban";
import { buildPaymentTransaction, PAYMENT_TIMEOUT_SECONDS } from "@/lib/stellar/transactions";
import type { AuthedContext } from "../context";
import { withTransaction } from "../db";
import { networkName } from "../invoices/network";
import { assertOwner, getLiveInvoice, type PaymentRow } from "../invoices/store";
import { lockPaymentAndHeld, type RefundRow, refundAsset } from "./store";

export const PAYMENT_NOT_FOUND = "Payment not found";
export const NOT_REFUNDABLE = "Only a confirmed payment can be refunded";
export const REFUND_SOURCE_NOT_FOUND =
  "Your wallet is not activated on this network. It must be funded first.";

export type RefundIntent = {
  refund: RefundRow;
  sep7Uri: string;
  asset: { code: string; issuer: string | null };
  networkPassphrase: string;
};

/**
 * Builds a refund of a recorded payment (docs/decisions.md, Refunds): the owner's unsigned
 * payment from the freelancer's wallet back to the payment's sender, in the asset received,
 * memo `RF-<id>`, 300-second time bounds, fee from the network. The amount is the one asked
 * for, or the default of lib/domain/refund.ts; refunds built and not yet settled count
 * against what is left, under the payment's row lock. Nothing moves until the signed
 * transaction is submitted (or seen on the ledger). Another wallet's invoice, or another
 * wallet's payment under the caller's invoice id, is 403 `Unauthorized` (docs/decisions.md,
 * Ownership); a key on the other network sees neither (404).
 */
export async function createRefund(
  ctx: AuthedContext,
  invoiceId: string,
  paymentId: string,
  input: { amount?: string | number } = {},
): Promise<RefundIntent> {
  const invoice = await getLiveInvoice(ctx.db, invoiceId);
  assertOwner(invoice, ctx);
  const payment = await findPayment(ctx, invoice.id, paymentId);
  // A payment received outside Stellar moved nothing on the ledger: nothing to send back.
  if (payment.method !== "stellar" || payment.fromWallet === null) {
    throw new BusinessRuleError(NOT_REFUNDABLE_OFF_LEDGER);
  }
  // Back to the address it came from: the M... muxed account it was sent from, if so
  // (docs/decisions.md, Muxed addresses); the ledger's checks are the base account's.
  const sender = payment.fromAddress ?? payment.fromWallet;
  const senderAccount = splitAddress(sender)?.account ?? sender;
  if (payment.status === "FAILED") throw new BusinessRuleError(NOT_REFUNDABLE);

  const network = networkName(invoice.networkPassphrase);
  const ledger = ledgerSourceFor(ctx.config, network);
  const asset = { code: payment.asset, issuer: payment.assetIssuer };
  // A smart wallet (C...) has no account to look up: its asset contract holds its balance and
  // the refund is that contract's transfer (docs/decisions.md, Smart-wallet payers).
  const contract = isContractAddress(sender);
  const [source, destination, baseFee] = await viaLedger(() =>
    Promise.all([
      ledger.account(payment.toWallet),
      contract ? Promise.resolve(null) : ledger.account(senderAccount),
      ledger.baseFee(),
    ]),
  );
  if (!source) throw new ValidationError(REFUND_SOURCE_NOT_FOUND);
  if (!contract && !destination) throw ledgerError("op_no_destination");
  if (!contract && asset.issuer && destination && !balanceOf(destination, asset)) {
    throw ledgerError("op_no_trust");
  }

  const now = ctx.now();
  const refund = await withTransaction(ctx.db, async (tx) => {
    const held = await lockPaymentAndHeld(tx, payment.id, now);
    if (!held) throw new NotFoundError(PAYMENT_NOT_FOUND);
    const locked = held.payment;
    // amountPaid as it is now (another payment may have landed since the first read).
    const [current] = await tx.select().from(invoices).where(eq(invoices.id, invoice.id));
    const amount = refundAmount(
      locked,
      current,
      held.held,
      input.amount === undefined ? undefined : parseAmount(input.amount),
    );
    const line = balanceOf(source, asset);
    if (asset.issuer && !line) throw ledgerError("op_src_no_trust");
    if (!line || toStroops(line.balance) < toStroops(amount))
      throw ledgerError("op_underfunded", asset.code);

    const id = newId();
    const memo = refundMemo(id);
    const transactionXdr = contract
      ? (
          await simulateAndAssemble(
            ctx.config.rpc[network],
            buildRefundTransfer({
              source: { id: source.id, sequence: source.sequence },
              to: sender,
              asset,
              amount: trimAmount(amount),
              networkPassphrase: invoice.networkPassphrase,
              baseFee,
              validUntil: new Date(now.getTime() + PAYMENT_TIMEOUT_SECONDS * 1000),
            }),
            asset.code,
          )
        ).xdr
      : buildPaymentTransaction({
          source: { id: source.id, sequence: source.sequence },
          destination: sender,
          // Any asset code: a wrong-asset payment goes back in the asset it came in.
          asset: asset as AssetRef,
          amount: trimAmount(amount),
          memo,
          networkPassphrase: invoice.networkPassphrase,
          baseFee,
          now,
        }).xdr;
    const [row] = await tx
      .insert(refunds)
      .values({
        id,
        paymentId: payment.id,
        invoiceId: invoice.id,
        wallet: payment.toWallet,
        amount,
        asset: asset.code,
        assetIssuer: asset.issuer,
        destination: sender,
        memo,
        status: "PENDING",
        transactionXdr,
        createdAt: now,
        expiresAt: new Date(
          Math.floor(now.getTime() / 1000) * 1000 + PAYMENT_TIMEOUT_SECONDS * 1000,
        ),
      })
      .returning();
    return row;
  });

  return {
    refund,
    asset: refundAsset(refund),
    networkPassphrase: invoice.networkPassphrase,
    sep7Uri: buildSep7PayUri({
      destination: refund.destination,
      amount: trimAmount(refund.amount),
      asset: refundAsset(refund) as AssetRef,
      memo: refund.memo,
      networkPassphrase: invoice.networkPassphrase,
      signer: sep7Signer(ctx.config),
    }),
  };
}

/**
 * The payment under the caller's invoice. A payment id that exists under another wallet's
 * invoice is 403 `Unauthorized`, whichever invoice id the path names; one that does not
 * exist (or is another invoice of the caller's) is 404.
 */
async function findPayment(
  ctx: AuthedContext,
  invoiceId: string,
  paymentId: string,
): Promise<PaymentRow> {
  if (!isId(paymentId)) throw new NotFoundError(PAYMENT_NOT_FOUND);
  const [found] = await ctx.db
    .select({ payment: payments, owner: invoices.freelancerWallet })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(eq(payments.id, paymentId))
    .limit(1);
  if (found && found.owner !== ctx.wallet) throw new ForbiddenError("Unauthorized");
  if (!found || found.payment.invoiceId !== invoiceId) throw new NotFoundError(PAYMENT_NOT_FOUND);
  return found.payment;
}
