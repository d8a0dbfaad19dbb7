import { BusinessRuleError, ValidationError } from "@/lib/domain/errors";
import type { Currency } from "@/lib/domain/money";
import { LedgerSourceError, ledgerSourceFor } from "@/lib/ledger-sources";
import type { NetworkName, NetworkPassphrase } from "@/lib/schemas/common";
import { type AssetRef, assetFor } from "@/lib/stellar/assets";
import { toDomainError, viaLedger } from "@/lib/stellar/errors";
import { decodeSignedTransaction } from "@/lib/stellar/transactions";
import { buildTrustlineTransaction, trustlineAssetsOf } from "@/lib/stellar/trustline";
import type { AuthedContext } from "../context";
import { networkName } from "../invoices/network";
import { REFUND_SOURCE_NOT_FOUND } from "../refunds/create-refund";
import { requestedPassphrase } from "./recipient-readiness";
import { INVALID_XDR } from "./settle";

// The one-click "Add trustline" (docs/decisions.md, Recipient readiness): the service builds
// the signed-in wallet's change_trust to the trusted issuer, the page signs it with the
// wallet, and the service relays it to Horizon.

export const XLM_NEEDS_NO_TRUSTLINE = "XLM needs no trustline";
export const NOT_A_TRUSTLINE =
  "Transaction is not a trustline of your wallet to an asset this service accepts";
export const WALLET_NOT_ACTIVATED = REFUND_SOURCE_NOT_FOUND;

export type TrustlineTransaction = {
  transactionXdr: string;
  networkPassphrase: string;
  asset: AssetRef;
  wallet: string;
};

export type TrustlineResult = {
  transactionHash: string;
  ledger: number;
  networkPassphrase: string;
  assets: AssetRef[];
};

/** The unsigned change_trust of the caller's wallet to `currency`'s trusted issuer. */
export async function buildTrustline(
  ctx: AuthedContext,
  input: { network?: NetworkName; networkPassphrase?: NetworkPassphrase; currency: Currency },
): Promise<TrustlineTransaction> {
  const passphrase = requestedPassphrase(ctx, input);
  if (input.currency === "XLM") {
    throw new ValidationError(XLM_NEEDS_NO_TRUSTLINE, { currency: "USDC or EURC" });
  }
  const network = networkName(passphrase);
  const source = ledgerSourceFor(ctx.config, network);
  const asset = assetFor(ctx.config, network, input.currency);
  const [account, baseFee] = await viaLedger(() =>
    Promise.all([source.account(ctx.wallet), source.baseFee()]),
  );
  if (!account) throw new BusinessRuleError(WALLET_NOT_ACTIVATED);
  const { xdr } = buildTrustlineTransaction({
    source: { id: account.id, sequence: account.sequence },
    asset: { code: asset.code, issuer: asset.issuer as string },
    networkPassphrase: passphrase,
    baseFee,
    now: ctx.now(),
  });
  return {
    transactionXdr: xdr,
    networkPassphrase: passphrase,
    asset,
    wallet: ctx.wallet,
  };
}

/**
 * Relays the signed change_trust to Horizon. Only a transaction of the caller's own wallet
 * whose every operation is a change_trust to an issuer the service trusts on that network is
 * sent; the ledger's refusals answer its messages (lib/stellar/errors.ts).
 */
export async function submitTrustline(
  ctx: AuthedContext,
  input: {
    network?: NetworkName;
    networkPassphrase?: NetworkPassphrase;
    signedTransactionXdr: string;
  },
): Promise<TrustlineResult> {
  const passphrase = requestedPassphrase(ctx, input);
  const decoded = decodeSignedTransaction(input.signedTransactionXdr, passphrase);
  if (!decoded) {
    throw new ValidationError(INVALID_XDR, { signedTransactionXdr: "not a transaction envelope" });
  }
  if (decoded.signedFor === "other") {
    throw new BusinessRuleError(
      `Network mismatch: Transaction signed for '${decoded.otherPassphrase}' but the trustline is for '${passphrase}'`,
    );
  }
  const network = networkName(passphrase);
  const assets = trustlineAssetsOf(decoded.envelopeXdr, passphrase, ctx.wallet);
  const trusted = (a: AssetRef) =>
    (a.code === "USDC" || a.code === "EURC") &&
    assetFor(ctx.config, network, a.code).issuer === a.issuer;
  if (!assets?.every(trusted)) throw new BusinessRuleError(NOT_A_TRUSTLINE);

  try {
    const res = await ledgerSourceFor(ctx.config, network).submit(decoded.envelopeXdr);
    return { transactionHash: res.hash, ledger: res.ledger, networkPassphrase: passphrase, assets };
  } catch (err) {
    // A refusal answers the ledger's message; 429, 5xx and timeouts the network's.
    throw err instanceof LedgerSourceError ? toDomainError(err) : err;
  }
}
