import {
  Account,
  Asset,
  FeeBumpTransaction,
  Operation,
  type Transaction,
  TransactionBuilder,
} from "@stellar/stellar-base";
import type { AssetRef } from "./assets";

/** A trustline lasts as long as the wallet wants it: its time bound is only for signing. */
export const TRUSTLINE_TIMEOUT_SECONDS = 300;

/**
 * The unsigned `change_trust` from `source` to the asset (one issuer, no limit given: the
 * ledger's maximum), so the same transaction adds a missing trustline or raises a full one
 * (docs/decisions.md, Recipient readiness).
 */
export function buildTrustlineTransaction(opts: {
  source: { id: string; sequence: string };
  asset: AssetRef & { issuer: string };
  networkPassphrase: string;
  baseFee: number;
  now: Date;
}): { xdr: string; hash: string } {
  const now = Math.floor(opts.now.getTime() / 1000);
  const tx = new TransactionBuilder(new Account(opts.source.id, opts.source.sequence), {
    fee: String(opts.baseFee),
    networkPassphrase: opts.networkPassphrase,
    timebounds: { minTime: 0, maxTime: now + TRUSTLINE_TIMEOUT_SECONDS },
  })
    .addOperation(Operation.changeTrust({ asset: new Asset(opts.asset.code, opts.asset.issuer) }))
    .build();
  return { xdr: tx.toXDR(), hash: tx.hash().toString("hex") };
}

/**
 * The assets a signed envelope changes trust in, when it is nothing but `change_trust`
 * operations of `source` (no fee bump, no other operation, no other source); null otherwise
 * or when it does not decode.
 */
export function trustlineAssetsOf(
  envelopeXdr: string,
  passphrase: string,
  source: string,
): AssetRef[] | null {
  let tx: Transaction | FeeBumpTransaction;
  try {
    tx = TransactionBuilder.fromXDR(envelopeXdr.trim(), passphrase);
  } catch {
    return null;
  }
  if (tx instanceof FeeBumpTransaction || tx.source !== source) return null;
  if (tx.operations.length === 0) return null;
  const assets: AssetRef[] = [];
  for (const op of tx.operations) {
    if (op.type !== "changeTrust" || (op.source && op.source !== source)) return null;
    if (!(op.line instanceof Asset) || op.line.isNative()) return null;
    assets.push({ code: op.line.getCode() as AssetRef["code"], issuer: op.line.getIssuer() });
  }
  return assets;
}
