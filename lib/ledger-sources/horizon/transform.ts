import { fromStroops, toStroops } from "@/lib/domain/money";
import type { PaymentOperation, PaymentTransaction } from "@/lib/domain/payment-match";
import type { PathAsset, PaymentPath } from "@/lib/stellar/paths";
import type { LedgerAccount, PagedTransaction, PaymentsPage } from "../interface";

/**
 * Horizon's records -> the domain's types. Pure: the shapes are those of the real Horizon
 * (tests/fixtures/horizon, ledger/fixtures), read by the source (./index.ts) and by nothing
 * else.
 */

/** Fields of Horizon's transaction resource that we read (tests/fixtures/horizon/transaction.json). */
export type HorizonTransaction = {
  hash: string;
  ledger: number;
  created_at: string;
  source_account: string;
  successful: boolean;
  memo_type: string;
  memo?: string;
  paging_token: string;
  /**
   * Fee-bump transactions only (transaction-fee-bump.json): the outer envelope's hash, under
   * which the ledger records the operations. Horizon answers a lookup by the inner hash with
   * the inner hash as `hash`, so `hash` alone does not identify the transaction.
   */
  fee_bump_transaction?: { hash: string };
  inner_transaction?: { hash: string };
};

/** Fields of Horizon's payment-like operation records (payments-page.json). */
export type HorizonPaymentRecord = {
  id: string;
  paging_token: string;
  type: string;
  transaction_hash: string;
  transaction_successful?: boolean;
  source_account?: string;
  from?: string;
  /** The sender's `M...` address and its id, when it sent from a muxed account. */
  from_muxed?: string;
  from_muxed_id?: string | number;
  to?: string;
  /** The destination's `M...` address and its id (a decimal string), when it was muxed. */
  to_muxed?: string;
  to_muxed_id?: string | number;
  amount?: string;
  asset_type?: string;
  asset_code?: string;
  asset_issuer?: string;
  funder?: string;
  account?: string;
  starting_balance?: string;
  /**
   * invoke_host_function only: the Stellar Asset Contract balance changes the invocation made
   * (a `transfer(from, to, amount)` from a smart wallet's C address, for one).
   */
  asset_balance_changes?: HorizonAssetBalanceChange[];
  created_at: string;
  transaction?: HorizonTransaction;
};

/**
 * One entry of an invoke_host_function record's `asset_balance_changes` (Horizon's
 * `asset_balance_change`; the record of the stellar-docs guide "Send and receive with C
 * accounts" is ./fixtures/invoke-host-function.json): `to` is the base account and
 * `destination_muxed_id` the id of a muxed destination (`M...`).
 */
export type HorizonAssetBalanceChange = {
  asset_type: string;
  asset_code?: string;
  asset_issuer?: string;
  type: string;
  from?: string;
  to?: string;
  amount: string;
  destination_muxed_id?: string;
};

export type HorizonPage<T> = {
  _links?: { next?: { href: string } };
  _embedded: { records: T[] };
};

/** Horizon's account resource: the fields we read are the ledger sources' account. */
export type HorizonAccount = LedgerAccount;

const MEMO_TYPES = new Set(["text", "id", "hash", "return", "none"]);

/**
 * The operation's index in its transaction: an operation id is a TOID whose low 12 bits are
 * the 1-based position of the operation (SEP-35); undefined when the id is not one.
 */
function operationIndexOf(id: string): number | undefined {
  if (!/^\d+$/.test(id)) return undefined;
  const order = Number(BigInt(id) & 0xfffn);
  return order > 0 ? order - 1 : undefined;
}

/** A Horizon payment record as the classifier's operation; null for other operation types. */
export function operationFromRecord(r: HorizonPaymentRecord): PaymentOperation | null {
  const index = operationIndexOf(r.id);
  if (r.type === "create_account") {
    return {
      type: "create_account",
      index,
      id: r.id,
      from: r.funder ?? r.source_account ?? null,
      to: r.account ?? "",
      assetCode: "XLM",
      assetIssuer: null,
      amount: r.starting_balance ?? "0",
    };
  }
  if (
    r.type === "payment" ||
    r.type === "path_payment_strict_receive" ||
    r.type === "path_payment_strict_send"
  ) {
    const native = r.asset_type === "native";
    return {
      type: r.type,
      index,
      id: r.id,
      from: r.from ?? r.source_account ?? null,
      to: r.to ?? "",
      // A muxed destination or sender (docs/decisions.md, Muxed addresses): `to` and `from`
      // are their G accounts.
      ...(r.to_muxed_id != null && { toMuxedId: String(r.to_muxed_id) }),
      ...(r.from_muxed && { fromMuxed: r.from_muxed }),
      assetCode: native ? "XLM" : (r.asset_code ?? ""),
      assetIssuer: native ? null : (r.asset_issuer ?? null),
      amount: r.amount ?? "0",
    };
  }
  if (r.type === "invoke_host_function") return contractTransferFromRecord(r, index);
  return null;
}

/**
 * An invoke_host_function record as a `contract_transfer`: its asset contract `transfer`
 * balance change (from a C or G address; mints, burns and clawbacks pay nothing). One
 * operation records one payment (the `(transaction_hash, operation_index)` key): a
 * Stellar Asset Contract `transfer` makes exactly one change; should a contract make several,
 * those to the first one's recipient in its asset (and muxed id) are added up, the others
 * left out. Null when the invocation moved nothing.
 */
function contractTransferFromRecord(
  r: HorizonPaymentRecord,
  index: number | undefined,
): PaymentOperation | null {
  const transfers = (r.asset_balance_changes ?? []).filter(
    (c) => c.type === "transfer" && c.to && c.from,
  );
  const [first] = transfers;
  if (!first) return null;
  const assetOf = (c: HorizonAssetBalanceChange) =>
    c.asset_type === "native"
      ? { assetCode: "XLM", assetIssuer: null }
      : { assetCode: c.asset_code ?? "", assetIssuer: c.asset_issuer ?? null };
  const asset = assetOf(first);
  const same = transfers.filter((c) => {
    const a = assetOf(c);
    return (
      c.to === first.to &&
      (c.destination_muxed_id ?? null) === (first.destination_muxed_id ?? null) &&
      a.assetCode === asset.assetCode &&
      a.assetIssuer === asset.assetIssuer
    );
  });
  return {
    type: "contract_transfer",
    index,
    id: r.id,
    from: first.from ?? null,
    to: first.to ?? "",
    toMuxedId: first.destination_muxed_id ?? null,
    ...asset,
    amount: fromStroops(same.reduce((sum, c) => sum + toStroops(c.amount), 0n)),
  };
}

export function transactionFromRecord(
  t: HorizonTransaction,
  operations: PaymentOperation[],
): PaymentTransaction {
  const memoType = (
    MEMO_TYPES.has(t.memo_type) ? t.memo_type : "none"
  ) as PaymentTransaction["memoType"];
  return {
    // One identity whichever hash it was read by: the outer hash of a fee-bump.
    hash: t.fee_bump_transaction?.hash ?? t.hash,
    innerHash: t.inner_transaction?.hash ?? null,
    successful: t.successful,
    memoType,
    memo: memoType === "none" ? null : (t.memo ?? null),
    createdAt: new Date(t.created_at),
    ledger: t.ledger,
    sourceAccount: t.source_account,
    operations,
  };
}

/**
 * A page of `/payments?join=transactions` as the domain's transactions: the records grouped
 * by transaction (in the page's order), each with its payment operations on the page (a
 * record without its joined transaction is left out). `limit` is the page size asked for: a page
 * that long is full, and its last transaction may go on past it (`maybeCut`).
 */
export function pageFromRecords(
  records: readonly HorizonPaymentRecord[],
  cursor: string,
  limit: number,
): PaymentsPage {
  const full = records.length === limit;
  const lastHash = records.at(-1)?.transaction_hash;
  const byTx = new Map<string, { record: HorizonTransaction; ops: PaymentOperation[] }>();
  for (const r of records) {
    const op = operationFromRecord(r);
    if (!op || !r.transaction) continue;
    const entry = byTx.get(r.transaction_hash) ?? { record: r.transaction, ops: [] };
    entry.ops.push(op);
    byTx.set(r.transaction_hash, entry);
  }
  const transactions: PagedTransaction[] = [...byTx].map(([hash, { record, ops }]) => ({
    transaction: transactionFromRecord(record, ops),
    maybeCut: full && hash === lastHash,
  }));
  return {
    transactions,
    read: records.length,
    cursor: records.at(-1)?.paging_token ?? cursor,
    full,
  };
}

type HorizonAsset = { asset_type: string; asset_code?: string; asset_issuer?: string };

/** A record of Horizon's paths endpoints (ledger/fixtures/paths-strict-receive.json). */
export type HorizonPathRecord = {
  source_asset_type: string;
  source_asset_code?: string;
  source_asset_issuer?: string;
  source_amount: string;
  destination_amount: string;
  path: HorizonAsset[];
};

function assetFromHorizon(a: HorizonAsset): PathAsset {
  return a.asset_type === "native"
    ? { code: "XLM", issuer: null }
    : { code: a.asset_code ?? "", issuer: a.asset_issuer ?? null };
}

/** `native` or `CODE:ISSUER`, as Horizon's asset lists write them. */
export function assetParam(a: PathAsset): string {
  return a.issuer === null ? "native" : `${a.code}:${a.issuer}`;
}

export function pathFromRecord(r: HorizonPathRecord): PaymentPath {
  return {
    sendAsset: assetFromHorizon({
      asset_type: r.source_asset_type,
      asset_code: r.source_asset_code,
      asset_issuer: r.source_asset_issuer,
    }),
    sourceAmount: fromStroops(toStroops(r.source_amount)),
    destAmount: fromStroops(toStroops(r.destination_amount)),
    path: r.path.map(assetFromHorizon),
  };
}
