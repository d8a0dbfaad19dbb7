/**
 * Horizon JSON shapes for the ledger's records. Field names, order and types follow the
 * samples in /work/shared/horizon-samples (strings for amounts, fees, sequences and ids;
 * numbers for ledger sequences and counts). `base` is the server's own URL for `_links`.
 */
import { formatStroops } from "./amount";
import { PROTOCOL_VERSION } from "./core";
import type { AccountEntry, LedgerHeader, OpRecord, TxRecord } from "./state";

export const HORIZON_VERSION = "local-ledger-1.0.0";
export const CORE_VERSION = `stellar-invoicing local ledger (protocol ${PROTOCOL_VERSION})`;

export function isoTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function link(href: string, templated = false): { href: string; templated?: true } {
  return templated ? { href, templated: true } : { href };
}

/** `{self}/<name>{?cursor,limit,order}` links for each collection under a resource. */
function pagedLinks(
  self: string,
  names: string[],
): Record<string, { href: string; templated?: true }> {
  return Object.fromEntries(names.map((n) => [n, link(`${self}/${n}{?cursor,limit,order}`, true)]));
}

export function renderAccount(base: string, a: AccountEntry): Record<string, unknown> {
  const self = `${base}/accounts/${a.id}`;
  const credit = Object.values(a.trustlines)
    .sort((x, y) =>
      x.code === y.code ? x.issuer.localeCompare(y.issuer) : x.code < y.code ? -1 : 1,
    )
    .map((t) => ({
      balance: formatStroops(t.balance),
      limit: formatStroops(t.limit),
      buying_liabilities: "0.0000000",
      selling_liabilities: "0.0000000",
      last_modified_ledger: t.lastModifiedLedger,
      is_authorized: true,
      is_authorized_to_maintain_liabilities: true,
      asset_type: t.code.length <= 4 ? "credit_alphanum4" : "credit_alphanum12",
      asset_code: t.code,
      asset_issuer: t.issuer,
    }));
  return {
    _links: {
      self: link(self),
      ...pagedLinks(self, [
        "transactions",
        "operations",
        "payments",
        "effects",
        "offers",
        "trades",
      ]),
      data: link(`${self}/data/{key}`, true),
    },
    id: a.id,
    account_id: a.id,
    sequence: a.seqNum.toString(),
    ...(a.seqLedger ? { sequence_ledger: a.seqLedger, sequence_time: String(a.seqTime) } : {}),
    subentry_count: a.subentries,
    ...(a.homeDomain ? { home_domain: a.homeDomain } : {}),
    last_modified_ledger: a.lastModifiedLedger,
    last_modified_time: isoTime(a.lastModifiedTime),
    thresholds: { low_threshold: 0, med_threshold: 0, high_threshold: 0 },
    flags: {
      auth_required: false,
      auth_revocable: false,
      auth_immutable: false,
      auth_clawback_enabled: false,
    },
    balances: [
      ...credit,
      {
        balance: formatStroops(a.balance),
        buying_liabilities: "0.0000000",
        selling_liabilities: "0.0000000",
        asset_type: "native",
      },
    ],
    signers: [{ weight: 1, key: a.id, type: "ed25519_public_key" }],
    data: { ...a.data },
    num_sponsoring: 0,
    num_sponsored: 0,
    paging_token: a.id,
  };
}

/**
 * A transaction resource. Looked up by the inner hash of a fee bump, `id` and `hash` are the
 * inner hash, as Horizon does.
 */
export function renderTx(base: string, tx: TxRecord, viewHash = tx.hash): Record<string, unknown> {
  const memo: Record<string, unknown> = {};
  if (tx.memoType !== "none") memo.memo = tx.memo ?? "";
  if (tx.memoType === "text") memo.memo_bytes = tx.memoBytes ?? "";
  const self = `${base}/transactions/${viewHash}`;
  const body: Record<string, unknown> = {
    ...memo,
    _links: {
      self: link(self),
      account: link(`${base}/accounts/${tx.sourceAccount}`),
      ledger: link(`${base}/ledgers/${tx.ledger}`),
      operations: link(`${self}/operations{?cursor,limit,order}`, true),
      effects: link(`${self}/effects{?cursor,limit,order}`, true),
      precedes: link(`${base}/transactions?order=asc&cursor=${tx.pagingToken}`),
      succeeds: link(`${base}/transactions?order=desc&cursor=${tx.pagingToken}`),
      transaction: link(self),
    },
    id: viewHash,
    paging_token: tx.pagingToken,
    successful: tx.successful,
    hash: viewHash,
    ledger: tx.ledger,
    created_at: isoTime(tx.closeTime),
    source_account: tx.sourceAccount,
  };
  if (tx.sourceAccountMuxed) {
    body.account_muxed = tx.sourceAccountMuxed;
  }
  Object.assign(body, {
    source_account_sequence: tx.sourceAccountSequence,
    fee_account: tx.feeAccount,
    fee_charged: tx.feeCharged,
    max_fee: tx.maxFee,
    operation_count: tx.operationCount,
    envelope_xdr: tx.envelopeXdr,
    result_xdr: tx.resultXdr,
    memo_type: tx.memoType,
    signatures: tx.signatures,
  });
  if (tx.timeBounds) {
    body.valid_after = isoTime(Number(tx.timeBounds.minTime));
    if (tx.timeBounds.maxTime !== "0") body.valid_before = isoTime(Number(tx.timeBounds.maxTime));
  }
  const preconditions: Record<string, unknown> = {};
  if (tx.timeBounds) {
    preconditions.timebounds =
      tx.timeBounds.maxTime === "0"
        ? { min_time: tx.timeBounds.minTime }
        : { min_time: tx.timeBounds.minTime, max_time: tx.timeBounds.maxTime };
  }
  if (tx.ledgerBounds) {
    preconditions.ledgerbounds = {
      min_ledger: tx.ledgerBounds.minLedger,
      ...(tx.ledgerBounds.maxLedger ? { max_ledger: tx.ledgerBounds.maxLedger } : {}),
    };
  }
  if (Object.keys(preconditions).length > 0) body.preconditions = preconditions;
  if (tx.innerHash) {
    body.fee_bump_transaction = { hash: tx.hash, signatures: tx.signatures };
    body.inner_transaction = {
      hash: tx.innerHash,
      signatures: tx.innerSignatures ?? [],
      max_fee: tx.innerMaxFee ?? "0",
    };
    if (viewHash === tx.innerHash) body.signatures = tx.innerSignatures ?? [];
  }
  return body;
}

export function renderOp(base: string, op: OpRecord, joined?: TxRecord): Record<string, unknown> {
  const self = `${base}/operations/${op.id}`;
  const body: Record<string, unknown> = {
    _links: {
      self: link(self),
      transaction: link(`${base}/transactions/${op.txHash}`),
      effects: link(`${self}/effects`),
      succeeds: link(`${base}/effects?order=desc&cursor=${op.id}`),
      precedes: link(`${base}/effects?order=asc&cursor=${op.id}`),
    },
    id: op.id,
    paging_token: op.id,
    transaction_successful: op.successful,
    source_account: op.sourceAccount,
  };
  if (op.sourceAccountMuxed) body.source_account_muxed = op.sourceAccountMuxed;
  Object.assign(body, {
    type: op.type,
    type_i: op.typeI,
    created_at: isoTime(op.closeTime),
    transaction_hash: op.txHash,
  });
  if (joined) body.transaction = renderTx(base, joined);
  Object.assign(body, op.details);
  return body;
}

export function renderLedger(base: string, l: LedgerHeader): Record<string, unknown> {
  const self = `${base}/ledgers/${l.sequence}`;
  return {
    _links: {
      self: link(self),
      ...pagedLinks(self, ["transactions", "operations", "payments", "effects"]),
    },
    id: l.hash,
    paging_token: (BigInt(l.sequence) << 32n).toString(),
    hash: l.hash,
    ...(l.sequence > 1 ? { prev_hash: l.prevHash } : {}),
    sequence: l.sequence,
    successful_transaction_count: l.successfulTxCount,
    failed_transaction_count: l.failedTxCount,
    operation_count: l.operationCount,
    tx_set_operation_count: l.txSetOperationCount,
    closed_at: isoTime(l.closeTime),
    total_coins: formatStroops(l.totalCoins),
    fee_pool: formatStroops(l.feePool),
    base_fee_in_stroops: l.baseFee,
    base_reserve_in_stroops: l.baseReserve,
    max_tx_set_size: l.maxTxSetSize,
    protocol_version: l.protocolVersion,
  };
}

export function renderRoot(
  base: string,
  latest: LedgerHeader,
  elder: number,
  networkPassphrase: string,
  friendbot: boolean,
): Record<string, unknown> {
  const t = (path: string) => link(`${base}${path}`, true);
  return {
    _links: {
      account: t("/accounts/{account_id}"),
      accounts: t("/accounts{?signer,sponsor,asset,liquidity_pool,cursor,limit,order}"),
      account_transactions: t("/accounts/{account_id}/transactions{?cursor,limit,order}"),
      claimable_balances: t("/claimable_balances{?asset,sponsor,claimant,cursor,limit,order}"),
      assets: t("/assets{?asset_code,asset_issuer,cursor,limit,order}"),
      effects: t("/effects{?cursor,limit,order}"),
      fee_stats: link(`${base}/fee_stats`),
      ...(friendbot ? { friendbot: t("/friendbot{?addr}") } : {}),
      ledger: t("/ledgers/{sequence}"),
      ledgers: t("/ledgers{?cursor,limit,order}"),
      liquidity_pools: t("/liquidity_pools{?reserves,account,cursor,limit,order}"),
      offer: t("/offers/{offer_id}"),
      offers: t("/offers{?selling,buying,seller,sponsor,cursor,limit,order}"),
      operation: t("/operations/{id}"),
      operations: t("/operations{?cursor,limit,order,include_failed}"),
      payments: t("/payments{?cursor,limit,order,include_failed}"),
      self: link(`${base}/`),
      transaction: t("/transactions/{hash}"),
      transactions: t("/transactions{?cursor,limit,order}"),
    },
    horizon_version: HORIZON_VERSION,
    core_version: CORE_VERSION,
    ingest_latest_ledger: latest.sequence,
    history_latest_ledger: latest.sequence,
    history_latest_ledger_closed_at: isoTime(latest.closeTime),
    history_elder_ledger: elder,
    core_latest_ledger: latest.sequence,
    network_passphrase: networkPassphrase,
    current_protocol_version: latest.protocolVersion,
    supported_protocol_version: latest.protocolVersion,
    core_supported_protocol_version: latest.protocolVersion,
  };
}

function percentile(sorted: bigint[], p: number): bigint {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

function distribution(values: bigint[], fallback: bigint): Record<string, string> {
  const sorted = values.length
    ? [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    : [fallback];
  const counts = new Map<bigint, number>();
  for (const v of sorted) counts.set(v, (counts.get(v) ?? 0) + 1);
  let mode = sorted[0];
  for (const [v, c] of counts) if (c > (counts.get(mode) ?? 0)) mode = v;
  const out: Record<string, string> = {
    max: sorted[sorted.length - 1].toString(),
    min: sorted[0].toString(),
    mode: mode.toString(),
  };
  for (const p of [10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99]) {
    out[`p${p}`] = percentile(sorted, p).toString();
  }
  return out;
}

/** fee_stats over the last 5 ledgers, per operation, like Horizon. */
export function renderFeeStats(
  latest: LedgerHeader,
  recentTxs: TxRecord[],
  recentLedgers: LedgerHeader[],
): Record<string, unknown> {
  const base = BigInt(latest.baseFee);
  const perOp = (fee: string, tx: TxRecord) =>
    BigInt(fee) / BigInt(tx.operationCount + (tx.innerHash ? 1 : 0));
  const used = recentLedgers.reduce((n, l) => n + l.txSetOperationCount, 0);
  const capacity = recentLedgers.reduce((n, l) => n + l.maxTxSetSize, 0) || 1;
  return {
    last_ledger: String(latest.sequence),
    last_ledger_base_fee: String(latest.baseFee),
    ledger_capacity_usage: (used / capacity).toFixed(2),
    fee_charged: distribution(
      recentTxs.map((t) => perOp(t.feeCharged, t)),
      base,
    ),
    max_fee: distribution(
      recentTxs.map((t) => perOp(t.maxFee, t)),
      base,
    ),
  };
}
