import { BusinessRuleError, ValidationError } from "@/lib/domain/errors";
import { type InvoiceStatus, transition } from "@/lib/domain/invoice-state";
import { toStroops, trimAmount } from "@/lib/domain/money";
import { paysMuxed } from "@/lib/domain/muxed";
import { OWN_INVOICE_MESSAGE } from "@/lib/domain/payment-match";
import { ledgerSourceFor } from "@/lib/ledger-sources";
import { type AssetRef, assetFor } from "@/lib/stellar/assets";
import { ledgerError, viaLedger } from "@/lib/stellar/errors";
import { muxedAddress } from "@/lib/stellar/muxed";
import type { PathAsset } from "@/lib/stellar/paths";
import { balanceOf } from "@/lib/stellar/read";
import { buildSep7PayUri, sep7Signer } from "@/lib/stellar/sep7";
import {
  AUTH_VALID_LEDGERS,
  assetContractId,
  buildAssetTransfer,
  isContractAddress,
  simulateAndAssemble,
} from "@/lib/stellar/soroban";
import { buildPaymentTransaction, PAYMENT_TIMEOUT_SECONDS } from "@/lib/stellar/transactions";
import type { ServiceContext } from "../context";
import { withTransaction } from "../db";
import { ANONYMOUS_ACTOR, applyTransition } from "../invoices/lifecycle";
import { networkName } from "../invoices/network";
import { getLiveInvoice, lockLiveInvoice } from "../invoices/store";
import { checkBeforeHold, holdPlace } from "../links/checkout";
import { assertLinkPayable } from "../links/links";
import { amountToReceive, type PathPayment, pathPaymentFor } from "./pay-options";
import type { QuoteRow } from "./quotes";
import { assertRecipientReceives } from "./recipient-readiness";

export const NETWORK_DOES_NOT_MATCH = "Selected wallet network does not match";
export const OWN_INVOICE = OWN_INVOICE_MESSAGE;
export const SENDER_NOT_FOUND =
  "Sender wallet is not activated on this network. It must be funded first.";
export const FEE_ACCOUNT_NOT_FOUND =
  "The fee account is not activated on this network. It must be funded first.";
export const INVALID_CONTRACT_SENDER = "Invalid contract address";

/** A smart wallet's payment: the asset contract call and what its signers sign. */
export type ContractPayment = {
  from: string;
  feeAccount: string;
  contractId: string;
  authEntries: string[];
  authValidUntilLedger: number;
};

export type PaymentIntent = {
  invoiceId: string;
  transactionXdr: string | null;
  sep7Uri: string;
  amount: string;
  asset: AssetRef;
  memo: string;
  networkPassphrase: string;
  timeout: number;
  /**
   * Where the payment goes: the freelancer's wallet, or the invoice's muxed address when the
   * payer is asked to pay it (`paysMuxed`, docs/decisions.md, Muxed addresses).
   */
  destination: string;
  /** The invoice's muxed address (M...): always shown, whichever destination is asked. */
  muxedAddress: string;
  status: InvoiceStatus;
  /** Fiat-priced invoices: the locked quote the amount comes from (docs/decisions.md, Fiat pricing). */
  quote: QuoteRow | null;
  /** Paying with another asset: the path of the path_payment_strict_receive (lib/stellar/paths.ts). */
  pathPayment: PathPayment | null;
  /** A contract account sender (C...): the asset contract transfer (lib/stellar/soroban.ts). */
  contractPayment: ContractPayment | null;
};

/**
 * Builds what a payer needs: always the SEP-7 URI, and with a sender the unsigned
 * transaction, both for the amount due, to the freelancer's wallet or (MUXED_DESTINATIONS=on,
 * or a contract sender that cannot attach a memo) to the invoice's muxed address, the memo
 * kept for classic payers (docs/decisions.md, Muxed addresses). A contract account sender
 * (a smart wallet, C...) gets the asset contract's `transfer(from, destination, amount)` from
 * `feeAccount`'s transaction, simulated through the network's Stellar RPC and assembled, with
 * the auth entries to sign (docs/decisions.md, Smart-wallet payers). Checks on the ledger first that the accounts exist and can hold the asset,
 * answering the ledger messages (lib/stellar/errors.ts). Moves PENDING/FAILED to PROCESSING (audit UPDATED).
 */
export async function createPaymentIntent(
  ctx: ServiceContext,
  invoiceId: string,
  input: { sender?: string; feeAccount?: string; networkPassphrase: string; sendAsset?: PathAsset },
): Promise<PaymentIntent> {
  const contractSender = input.sender?.startsWith("C") ? input.sender : null;
  if (contractSender && !isContractAddress(contractSender)) {
    throw new ValidationError(INVALID_CONTRACT_SENDER, {
      senderPublicKey: "Invalid Stellar address",
    });
  }
  const invoice = await getLiveInvoice(ctx.db, invoiceId);
  // An expired link cannot start a new payment; a reusable one is paid through checkouts.
  assertLinkPayable(invoice, ctx.now());
  if (input.networkPassphrase !== invoice.networkPassphrase) {
    throw new BusinessRuleError(NETWORK_DOES_NOT_MATCH, {
      networkPassphrase: `This invoice is payable on '${invoice.networkPassphrase}'`,
    });
  }
  transition(invoice.status, "payIntent"); // 400 when not payable
  if (input.sender && input.sender === invoice.freelancerWallet) {
    throw new BusinessRuleError(OWN_INVOICE);
  }
  const muxed = muxedAddress(invoice.freelancerWallet, invoice.muxedId);
  const payToMuxed = paysMuxed({
    muxedDestinations: ctx.config.muxedDestinations,
    sender: input.sender,
  });
  // A payer who commits takes a place of a limited link's checkout: 409 when none is free,
  // 429 past the holds one address may take (docs/decisions.md, Payment links, Places).
  if (input.sender) await checkBeforeHold(ctx, invoice);
  const network = networkName(invoice.networkPassphrase);
  const source = ledgerSourceFor(ctx.config, network);
  const asset = assetFor(ctx.config, network, invoice.currency);
  // The amount due: what is left after earlier partial payments (docs/decisions.md,
  // Payment intent and SEP-7); for a fiat-priced invoice, the asset amount of a locked quote
  // of the fiat amount due (a 503 and no quote without a fresh price).
  const { due, quote } = await amountToReceive(ctx, invoice);
  const amount = trimAmount(due);

  // The account that sends the transaction: the sender, or a contract sender's fee account.
  const sourceAccount = contractSender ? input.feeAccount : input.sender;
  const [recipient, sender, baseFee] = await viaLedger(() =>
    Promise.all([
      source.account(invoice.freelancerWallet),
      sourceAccount ? source.account(sourceAccount) : Promise.resolve(null),
      input.sender ? source.baseFee() : Promise.resolve(100),
    ]),
  );
  // The recipient's own readiness, in the payer's words (docs/decisions.md, Recipient readiness).
  const { createAccount } = assertRecipientReceives(recipient, invoice, asset, due);
  // create_account cannot take a muxed destination: the memo then names the invoice.
  const destination = payToMuxed && !createAccount ? muxed : invoice.freelancerWallet;

  let transactionXdr: string | null = null;
  let pathPayment: PathPayment | null = null;
  let contractPayment: ContractPayment | null = null;
  if (contractSender) {
    if (!sender) throw new ValidationError(FEE_ACCOUNT_NOT_FOUND, { feeAccount: "not activated" });
    // The asset contract moves existing balances: it creates no account.
    if (createAccount) throw ledgerError("op_no_destination");
    const validUntil =
      quote?.expiresAt ?? new Date(ctx.now().getTime() + PAYMENT_TIMEOUT_SECONDS * 1000);
    const call = buildAssetTransfer({
      source: { id: sender.id, sequence: sender.sequence },
      from: contractSender,
      to: destination,
      asset,
      amount,
      networkPassphrase: invoice.networkPassphrase,
      baseFee,
      validUntil,
    });
    const assembled = await simulateAndAssemble(ctx.config.rpc[network], call, asset.code);
    transactionXdr = assembled.xdr;
    contractPayment = {
      from: contractSender,
      feeAccount: sender.id,
      contractId: assetContractId(asset, invoice.networkPassphrase),
      authEntries: assembled.authEntries,
      authValidUntilLedger: assembled.latestLedger + AUTH_VALID_LEDGERS,
    };
  } else if (input.sender) {
    if (!sender) throw new ValidationError(SENDER_NOT_FOUND);
    // Another asset than the invoice's: a path payment delivering exactly `due` (docs/decisions.md, Path payments).
    pathPayment = await pathPaymentFor(ctx, source, { sendAsset: input.sendAsset, asset, due });
    if (pathPayment && createAccount) throw ledgerError("op_no_destination");
    const sent = pathPayment?.sendAsset ?? asset;
    const line = balanceOf(sender, sent);
    if (sent.issuer && !line) throw ledgerError("op_src_no_trust");
    if (!line || toStroops(line.balance) < toStroops(pathPayment?.sourceAmount ?? due)) {
      throw ledgerError("op_underfunded", sent.code);
    }
    transactionXdr = buildPaymentTransaction({
      source: { id: sender.id, sequence: sender.sequence },
      destination,
      asset,
      amount,
      memo: invoice.invoiceNumber,
      networkPassphrase: invoice.networkPassphrase,
      baseFee,
      createAccount,
      now: ctx.now(),
      validUntil: quote?.expiresAt,
      path: pathPayment,
    }).xdr;
  }

  const { status } = await withTransaction(ctx.db, async (tx) => {
    const locked = await lockLiveInvoice(tx, invoiceId);
    if (input.sender) {
      const validUntil =
        quote?.expiresAt ?? new Date(ctx.now().getTime() + PAYMENT_TIMEOUT_SECONDS * 1000);
      await holdPlace(tx, locked, validUntil, ctx.now());
    }
    return applyTransition(tx, locked, "payIntent", {
      actor: input.sender ?? ANONYMOUS_ACTOR,
      at: ctx.now(),
      // What the payer was asked for, so the trail reads "Payment started (quote 12.3 XLM)"
      // (lib/audit-words.ts): a fiat-priced invoice's quote, else the amount due in its asset.
      changes: quote
        ? { quote: { amount, asset: invoice.currency } }
        : { amount, asset: invoice.currency },
    });
  });

  return {
    invoiceId,
    transactionXdr,
    // The memo stays beside a muxed destination: a classic wallet attaches both, and the
    // invoice is matched by either (docs/decisions.md, Muxed addresses).
    sep7Uri: buildSep7PayUri({
      destination,
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
    destination,
    muxedAddress: muxed,
    status,
    quote,
    pathPayment,
    contractPayment,
  };
}
