/**
 * Decoding of submitted envelopes with the SDK. The hash is computed exactly as the network does
 * (SHA-256 of the network id and the tagged transaction), so it equals what `tx.hash()` gives a
 * client that built the transaction for this ledger's passphrase.
 */
import {
  FeeBumpTransaction,
  type Operation,
  StrKey,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { toStroops } from "./amount";

export interface ParsedTx {
  envelopeXdr: string;
  /** hash of the submitted transaction (the outer one for fee bumps), hex */
  hash: string;
  hashBytes: Buffer;
  /** the transaction carrying the operations (inner tx of a fee bump) */
  tx: Transaction;
  txHash: string;
  txHashBytes: Buffer;
  feeBump?: {
    feeSource: string;
    feeSourceMuxed?: string;
    fee: bigint;
    signatures: xdr.DecoratedSignature[];
  };
  /** G address of the transaction source (muxed sources resolved) */
  source: string;
  sourceMuxed?: string;
  seq: bigint;
  /** fee bid of the inner (or only) transaction */
  fee: bigint;
  ops: Operation[];
  /** the transaction's SorobanTransactionData (TransactionExt v1), when it has one */
  sorobanData?: xdr.SorobanTransactionData;
  /** declared Soroban resource fee (0 without sorobanData) */
  resourceFee: bigint;
  /** size of the inner transaction's envelope in bytes (Soroban transaction size fee) */
  envelopeSize: number;
}

/** Resolves an M... address to its G... account; G addresses pass through. */
export function baseAccount(address: string): string {
  if (address.startsWith("M")) {
    const raw = StrKey.decodeMed25519PublicKey(address);
    return StrKey.encodeEd25519PublicKey(raw.subarray(0, 32));
  }
  return address;
}

/** The uint64 id of a muxed address, as a decimal string. */
export function muxedId(address: string): string {
  const raw = StrKey.decodeMed25519PublicKey(address);
  return raw.readBigUInt64BE(32).toString();
}

/** Decodes a base64 TransactionEnvelope. Throws if it is not a valid envelope. */
export function parseEnvelope(envelopeXdr: string, networkPassphrase: string): ParsedTx {
  const decoded = TransactionBuilder.fromXDR(envelopeXdr, networkPassphrase);
  const hashBytes = decoded.hash();
  let tx: Transaction;
  let feeBump: ParsedTx["feeBump"];
  if (decoded instanceof FeeBumpTransaction) {
    tx = decoded.innerTransaction;
    feeBump = {
      feeSource: baseAccount(decoded.feeSource),
      feeSourceMuxed: decoded.feeSource.startsWith("M") ? decoded.feeSource : undefined,
      fee: BigInt(decoded.fee),
      signatures: decoded.signatures,
    };
  } else {
    tx = decoded;
  }
  const txHashBytes = tx.hash();
  // the decoded XDR itself (toEnvelope() re-serializes: too costly for every transaction)
  const ext = (tx as unknown as { tx: xdr.Transaction }).tx.ext(); // v0: ext 0 too
  const sorobanData = ext.switch() === 1 ? ext.sorobanData() : undefined;
  // Touch every decoded amount once so that malformed envelopes fail here, not later.
  for (const op of tx.operations) {
    for (const key of ["amount", "startingBalance", "sendMax", "destAmount", "sendAmount"]) {
      const v = (op as unknown as Record<string, unknown>)[key];
      if (typeof v === "string") toStroops(v);
    }
  }
  return {
    envelopeXdr,
    hash: hashBytes.toString("hex"),
    hashBytes,
    tx,
    txHash: txHashBytes.toString("hex"),
    txHashBytes,
    feeBump,
    source: baseAccount(tx.source),
    sourceMuxed: tx.source.startsWith("M") ? tx.source : undefined,
    seq: BigInt(tx.sequence),
    fee: BigInt(tx.fee),
    ops: tx.operations,
    sorobanData,
    resourceFee: sorobanData ? BigInt(sorobanData.resourceFee().toString()) : 0n,
    // only Soroban fees depend on it
    envelopeSize: sorobanData ? tx.toEnvelope().toXDR().length : 0,
  };
}

/** Source account (G) of operation `op` in a transaction whose source is `txSource`. */
export function opSource(op: Operation, txSource: string): string {
  return op.source ? baseAccount(op.source) : txSource;
}
