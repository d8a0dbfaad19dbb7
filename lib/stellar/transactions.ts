import {
  Account,
  Asset,
  FeeBumpTransaction,
  Keypair,
  Memo,
  MuxedAccount,
  Operation,
  StrKey,
  type Transaction,
  TransactionBuilder,
} from "@stellar/stellar-base";
import { NETWORK_PASSPHRASES } from "@/lib/config";
import type { PaymentOperation } from "@/lib/domain/payment-match";
import type { AssetRef } from "./assets";
import { splitAddress } from "./muxed";
import type { PathAsset } from "./paths";
import { contractTransferOf } from "./soroban";

export const PAYMENT_TIMEOUT_SECONDS = 300;

/** The unsigned payment (docs/decisions.md, Payment intent and SEP-7). */
export function buildPaymentTransaction(opts: {
  source: { id: string; sequence: string };
  destination: string;
  asset: AssetRef;
  amount: string;
  memo: string;
  networkPassphrase: string;
  baseFee: number;
  /** Payment links to a not-yet-existing XLM account: create it instead of paying it. */
  createAccount?: boolean;
  now?: Date;
  /** Ends the time bounds here instead of PAYMENT_TIMEOUT_SECONDS from now (a quote's expiry). */
  validUntil?: Date;
  /** Pays with another asset: one path_payment_strict_receive delivering exactly `amount`. */
  path?: { sendAsset: PathAsset; sendMax: string; path: PathAsset[] } | null;
}): { xdr: string; hash: string } {
  const sdkAsset = (a: PathAsset) =>
    a.issuer === null ? Asset.native() : new Asset(a.code, a.issuer);
  const asset = sdkAsset(opts.asset);
  const operation = opts.createAccount
    ? Operation.createAccount({ destination: opts.destination, startingBalance: opts.amount })
    : opts.path
      ? Operation.pathPaymentStrictReceive({
          sendAsset: sdkAsset(opts.path.sendAsset),
          sendMax: opts.path.sendMax,
          destination: opts.destination,
          destAsset: asset,
          destAmount: opts.amount,
          path: opts.path.path.map(sdkAsset),
        })
      : Operation.payment({ destination: opts.destination, asset, amount: opts.amount });
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const tx = new TransactionBuilder(new Account(opts.source.id, opts.source.sequence), {
    fee: String(opts.baseFee),
    networkPassphrase: opts.networkPassphrase,
    timebounds: {
      minTime: 0,
      maxTime: opts.validUntil
        ? Math.floor(opts.validUntil.getTime() / 1000)
        : now + PAYMENT_TIMEOUT_SECONDS,
    },
  })
    .addOperation(operation)
    .addMemo(Memo.text(opts.memo))
    .build();
  return { xdr: tx.toXDR(), hash: tx.hash().toString("hex") };
}

export type DecodedTransaction = {
  /** The envelope's hash: the outer hash of a fee-bump, as the ledger will record it. */
  hash: string;
  /** A fee-bump envelope's inner transaction hash; null otherwise. */
  innerHash: string | null;
  envelopeXdr: string;
  sourceAccount: string;
  memoType: "text" | "id" | "hash" | "return" | "none";
  memo: string | null;
  operations: PaymentOperation[];
  /**
   * Per operation of the (inner) transaction, the code of the asset its source sends ("XLM"
   * for the native asset; a path payment's send asset); null for other operations. Names the
   * asset a payer lacks when the ledger answers op_underfunded (lib/stellar/errors.ts).
   */
  sends: (string | null)[];
  /** Which network the source's signature was made for, when it can be told. */
  signedFor: "expected" | "other" | "unknown";
  otherPassphrase: string;
  /** The end of the time bounds (a quote's expiry); null when the transaction has none. */
  validUntil: Date | null;
};

/**
 * Decodes a signed envelope (plain or fee-bump) for the invoice's network and tells which
 * network its signatures were made for: a signature only verifies over the hash of the
 * network it was made for, so the envelope itself reveals a wrong-network payment.
 */
export function decodeSignedTransaction(
  envelopeXdr: string,
  expectedPassphrase: string,
  /**
   * The assets whose Stellar Asset Contract `transfer` reads as a payment (a smart wallet's
   * contract_transfer, lib/stellar/soroban.ts); none by default.
   */
  contractAssets: readonly PathAsset[] = [],
): DecodedTransaction | null {
  let parsed: Transaction | FeeBumpTransaction;
  try {
    parsed = TransactionBuilder.fromXDR(envelopeXdr.trim(), expectedPassphrase);
  } catch {
    return null;
  }
  const inner = parsed instanceof FeeBumpTransaction ? parsed.innerTransaction : parsed;
  const otherPassphrase =
    expectedPassphrase === NETWORK_PASSPHRASES.mainnet
      ? NETWORK_PASSPHRASES.testnet
      : NETWORK_PASSPHRASES.mainnet;
  const source = baseAccount(inner.source);
  const signedFor = (() => {
    if (!source) return "unknown" as const;
    if (signedBy(inner, source, expectedPassphrase)) return "expected" as const;
    if (signedBy(inner, source, otherPassphrase)) return "other" as const;
    return "unknown" as const;
  })();
  return {
    hash: parsed.hash().toString("hex"),
    innerHash: parsed instanceof FeeBumpTransaction ? inner.hash().toString("hex") : null,
    envelopeXdr: envelopeXdr.trim(),
    sourceAccount: source ?? inner.source,
    ...memoOf(inner.memo),
    operations: inner.operations.flatMap((op, index) => {
      const transfer = contractTransferOf(op, contractAssets, expectedPassphrase);
      if (transfer) return [{ ...transfer, index }];
      return operationFromEnvelope(op, inner.source).map((o) => ({ ...o, index }));
    }),
    sends: inner.operations.map(
      (op) =>
        contractTransferOf(op, contractAssets, expectedPassphrase)?.assetCode ?? sentAssetCode(op),
    ),
    signedFor,
    otherPassphrase,
    validUntil:
      inner.timeBounds && Number(inner.timeBounds.maxTime) > 0
        ? new Date(Number(inner.timeBounds.maxTime) * 1000)
        : null,
  };
}

function signedBy(tx: Transaction, account: string, passphrase: string): boolean {
  let hash: Buffer;
  try {
    hash = TransactionBuilder.fromXDR(tx.toXDR(), passphrase).hash();
  } catch {
    return false;
  }
  const kp = Keypair.fromPublicKey(account);
  return tx.signatures.some((s) => {
    try {
      return kp.verify(hash, s.signature());
    } catch {
      return false;
    }
  });
}

function memoOf(memo: Memo): Pick<DecodedTransaction, "memoType" | "memo"> {
  switch (memo.type) {
    case "text":
      return {
        memoType: "text",
        memo: Buffer.isBuffer(memo.value) ? memo.value.toString("utf8") : String(memo.value),
      };
    case "id":
      return { memoType: "id", memo: String(memo.value) };
    case "hash":
    case "return":
      return {
        memoType: memo.type,
        memo: Buffer.isBuffer(memo.value) ? memo.value.toString("base64") : String(memo.value),
      };
    default:
      return { memoType: "none", memo: null };
  }
}

/** A G address for a G or M (muxed) address; null when neither. */
export function baseAccount(address: string | undefined): string | null {
  if (!address) return null;
  if (StrKey.isValidEd25519PublicKey(address)) return address;
  if (StrKey.isValidMed25519PublicKey(address)) {
    return MuxedAccount.fromAddress(address, "0").baseAccount().accountId();
  }
  return null;
}

/** The code of the asset an operation's source sends; null when it sends none. */
function sentAssetCode(op: Operation): string | null {
  switch (op.type) {
    case "payment":
      return assetParts(op.asset).assetCode;
    case "pathPaymentStrictReceive":
    case "pathPaymentStrictSend":
      return assetParts(op.sendAsset).assetCode;
    case "createAccount":
      return "XLM";
    default:
      return null;
  }
}

function assetParts(asset: Asset): { assetCode: string; assetIssuer: string | null } {
  return asset.isNative()
    ? { assetCode: "XLM", assetIssuer: null }
    : { assetCode: asset.getCode(), assetIssuer: asset.getIssuer() };
}

/**
 * The payment operations of an unsubmitted envelope. For strict-send path payments the
 * guaranteed amount is `destMin` (what actually arrives is only known after the ledger).
 */
function operationFromEnvelope(op: Operation, txSource: string): PaymentOperation[] {
  // The operation's source, else the transaction's; a muxed one (M...) as its G account, the
  // M address kept as `fromMuxed` (docs/decisions.md, Muxed addresses).
  const sourceAddress = op.source ?? txSource;
  const from = baseAccount(sourceAddress) ?? sourceAddress;
  const fromMuxed = sourceAddress.startsWith("M") ? { fromMuxed: sourceAddress } : {};
  const paid = (
    type: PaymentOperation["type"],
    destination: string,
    amount: string,
    asset: Asset,
  ): PaymentOperation[] => {
    const to = splitAddress(destination);
    return [
      {
        type,
        from,
        ...fromMuxed,
        to: to?.account ?? destination,
        ...(to?.muxedId && { toMuxedId: to.muxedId }),
        amount,
        ...assetParts(asset),
      },
    ];
  };
  switch (op.type) {
    case "payment":
      return paid("payment", op.destination, op.amount, op.asset);
    case "pathPaymentStrictReceive":
      return paid("path_payment_strict_receive", op.destination, op.destAmount, op.destAsset);
    case "pathPaymentStrictSend":
      return paid("path_payment_strict_send", op.destination, op.destMin, op.destAsset);
    case "createAccount":
      return [
        {
          type: "create_account",
          from,
          ...fromMuxed,
          to: op.destination,
          amount: op.startingBalance,
          assetCode: "XLM",
          assetIssuer: null,
        },
      ];
    default:
      return [];
  }
}
