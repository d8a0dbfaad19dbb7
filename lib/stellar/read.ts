import type { PaymentOperation, PaymentTransaction } from "@/lib/domain/payment-match";
import { type HorizonClient, HorizonError } from "./horizon";

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
  to?: string;
  amount?: string;
  asset_type?: string;
  asset_code?: string;
  asset_issuer?: string;
  funder?: string;
  account?: string;
  starting_balance?: string;
  created_at: string;
  transaction?: HorizonTransaction;
};

export type HorizonPage<T> = {
  _links?: { next?: { href: string } };
  _embedded: { records: T[] };
};

export type HorizonAccount = {
  id: string;
  sequence: string;
  balances: {
    asset_type: string;
    asset_code?: string;
    asset_issuer?: string;
    balance: string;
    limit?: string;
    /** Trustlines only: what open offers may still buy (counts against the limit). */
    buying_liabilities?: string;
    /** Trustlines only: false when the issuer has not authorized (or froze) it. */
    is_authorized?: boolean;
  }[];
};

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
      assetCode: native ? "XLM" : (r.asset_code ?? ""),
      assetIssuer: native ? null : (r.asset_issuer ?? null),
      amount: r.amount ?? "0",
    };
  }
  return null;
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

/** The transaction and all its payment operations, or null when the network does not know it. */
export async function fetchPaymentTransaction(
  horizon: HorizonClient,
  hash: string,
): Promise<PaymentTransaction | null> {
  try {
    const tx = await horizon.get<HorizonTransaction>(`/transactions/${hash}`);
    const operations: PaymentOperation[] = [];
    let path: string | null = `/transactions/${tx.fee_bump_transaction?.hash ?? tx.hash}/payments`;
    let query: Record<string, string | number> | undefined = { limit: 200, include_failed: "true" };
    // A transaction has at most 100 operations: one page, but follow `next` to be safe.
    for (let pages = 0; path && pages < 5; pages++) {
      const page: HorizonPage<HorizonPaymentRecord> = await horizon.get(path, query);
      for (const r of page._embedded.records) {
        const op = operationFromRecord(r);
        if (op) operations.push(op);
      }
      path =
        page._embedded.records.length === 200 && page._links?.next
          ? relative(horizon, page._links.next.href)
          : null;
      query = undefined;
    }
    return transactionFromRecord(tx, operations);
  } catch (err) {
    if (err instanceof HorizonError && err.failure.kind === "not_found") return null;
    throw err;
  }
}

export async function fetchAccount(
  horizon: HorizonClient,
  id: string,
): Promise<HorizonAccount | null> {
  try {
    return await horizon.get<HorizonAccount>(`/accounts/${id}`);
  } catch (err) {
    if (err instanceof HorizonError && err.failure.kind === "not_found") return null;
    throw err;
  }
}

/** The network's current base fee in stroops (fee_stats.last_ledger_base_fee). */
export async function fetchBaseFee(horizon: HorizonClient): Promise<number> {
  const stats = await horizon.get<{ last_ledger_base_fee: string }>("/fee_stats");
  const fee = Number(stats.last_ledger_base_fee);
  return Number.isInteger(fee) && fee > 0 ? fee : 100;
}

/** Paging token of the newest ledger: a cursor that means "from now on". */
export async function fetchLatestLedgerCursor(horizon: HorizonClient): Promise<string> {
  const page = await horizon.get<HorizonPage<{ paging_token: string }>>("/ledgers", {
    order: "desc",
    limit: 1,
  });
  return page._embedded.records[0]?.paging_token ?? "0";
}

/** Horizon's `next` links are absolute; our client wants a path and query of the same server. */
export function relative(horizon: HorizonClient, href: string): string {
  const u = new URL(href);
  const base = new URL(horizon.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, "");
  return u.pathname.slice(prefix.length) + u.search;
}

/** Balance line of an asset (native when issuer is null). */
export function balanceOf(
  account: HorizonAccount,
  asset: { code: string; issuer: string | null },
): HorizonAccount["balances"][number] | undefined {
  return account.balances.find((b) =>
    asset.issuer === null
      ? b.asset_type === "native"
      : b.asset_code === asset.code && b.asset_issuer === asset.issuer,
  );
}
