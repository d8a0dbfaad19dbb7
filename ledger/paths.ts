/**
 * Horizon's path finding (`GET /paths/strict-receive`, `GET /paths/strict-send`) over what the
 * local ledger can convert: the same hops path payments apply (ledger/apply.ts: same asset, or
 * XLM <-> one of its own credit assets at a fixed rate; credit -> credit goes through XLM).
 * Records have Horizon's path shape (ledger/fixtures/paths-strict-receive.json); only paths the
 * counterparties can fill are returned, and with `source_account` only those the sender can
 * afford, as Horizon does.
 */
import { Asset, StrKey } from "@stellar/stellar-sdk";
import { formatStroops, INT64_MAX } from "./amount";
import { type Hop, hopBetween } from "./apply";
import type { AccountEntry, LedgerState } from "./state";
import { availableNative } from "./validate";

export interface PathContext {
  state: LedgerState;
  rates: Map<string, bigint>;
  baseReserve: bigint;
}

type AssetJson = { asset_type: string; asset_code?: string; asset_issuer?: string };

export interface PathRecord {
  source_asset_type: string;
  source_asset_code?: string;
  source_asset_issuer?: string;
  source_amount: string;
  destination_asset_type: string;
  destination_asset_code?: string;
  destination_asset_issuer?: string;
  destination_amount: string;
  path: AssetJson[];
}

/** A query parameter Horizon would reject: answered 400 with `invalid_field`. */
export class PathQueryError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

function assetJson(a: Asset): AssetJson {
  if (a.isNative()) return { asset_type: "native" };
  return {
    asset_type: a.getCode().length <= 4 ? "credit_alphanum4" : "credit_alphanum12",
    asset_code: a.getCode(),
    asset_issuer: a.getIssuer(),
  };
}

function prefixed(prefix: "source" | "destination", a: Asset): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(assetJson(a))) out[`${prefix}_${k}`] = v as string;
  return out;
}

/** `{prefix}_asset_type`, `_code`, `_issuer` of a query as an Asset. */
export function assetParam(q: URLSearchParams, prefix: string): Asset {
  const type = q.get(`${prefix}_asset_type`);
  if (type === "native") return Asset.native();
  if (type !== "credit_alphanum4" && type !== "credit_alphanum12") {
    throw new PathQueryError(
      `${prefix}_asset_type`,
      "Asset type must be native, credit_alphanum4 or credit_alphanum12",
    );
  }
  const code = q.get(`${prefix}_asset_code`) ?? "";
  const issuer = q.get(`${prefix}_asset_issuer`) ?? "";
  const max = type === "credit_alphanum4" ? 4 : 12;
  const min = type === "credit_alphanum4" ? 1 : 5;
  if (!/^[a-zA-Z0-9]+$/.test(code) || code.length < min || code.length > max) {
    throw new PathQueryError(
      `${prefix}_asset_code`,
      "Asset code must be 1-12 alphanumeric characters",
    );
  }
  if (!StrKey.isValidEd25519PublicKey(issuer)) {
    throw new PathQueryError(`${prefix}_asset_issuer`, "Asset issuer must be a valid account ID");
  }
  return new Asset(code, issuer);
}

/** `native` or `CODE:ISSUER`, comma-separated (source_assets / destination_assets). */
function assetList(field: string, value: string): Asset[] {
  return value.split(",").map((item) => {
    const s = item.trim();
    if (s === "native") return Asset.native();
    const [code, issuer, extra] = s.split(":");
    if (extra !== undefined || !code || !issuer || !/^[a-zA-Z0-9]{1,12}$/.test(code)) {
      throw new PathQueryError(field, `${s} is not a valid asset`);
    }
    if (!StrKey.isValidEd25519PublicKey(issuer)) {
      throw new PathQueryError(field, `${s} is not a valid asset`);
    }
    return new Asset(code, issuer);
  });
}

function amountParam(q: URLSearchParams, field: string): bigint {
  const raw = q.get(field) ?? "";
  const m = /^(\d+)(?:\.(\d{1,7}))?$/.exec(raw);
  const value = m ? BigInt(m[1]) * 10_000_000n + BigInt((m[2] ?? "").padEnd(7, "0")) : 0n;
  if (!m || value <= 0n || value > INT64_MAX) {
    throw new PathQueryError(field, "Amount must be positive and have at most 7 decimals");
  }
  return value;
}

/** The assets an account holds (XLM first, then its trustlines), with the balance of each. */
function holdings(ctx: PathContext, account: AccountEntry): Array<[Asset, bigint]> {
  const out: Array<[Asset, bigint]> = [[Asset.native(), availableNative(account, ctx.baseReserve)]];
  for (const t of Object.values(account.trustlines))
    out.push([new Asset(t.code, t.issuer), t.balance]);
  return out;
}

/** The hops from `from` to `to`: direct, or through XLM between two credit assets. */
function route(ctx: PathContext, from: Asset, to: Asset): { path: Asset[]; hops: Hop[] } | null {
  const direct = hopBetween(from, to, ctx);
  if (direct) return { path: [], hops: [direct] };
  if (from.isNative() || to.isNative()) return null;
  const first = hopBetween(from, Asset.native(), ctx);
  const second = hopBetween(Asset.native(), to, ctx);
  return first && second ? { path: [Asset.native()], hops: [first, second] } : null;
}

/** Whether every conversion's counterparty can pay its side (and is not the sender). */
function fillable(ctx: PathContext, hops: Hop[], sendAmount: bigint, sender?: string): boolean {
  let amount = sendAmount;
  for (const hop of hops) {
    const out = hop.forward(amount);
    if (out <= 0n) return false;
    if (hop.counterparty) {
      if (hop.counterparty === sender) return false;
      const cp = ctx.state.getAccount(hop.counterparty);
      if (!cp) return false;
      if (hop.xlm === "fromCounterparty" && availableNative(cp, ctx.baseReserve) < out)
        return false;
    }
    amount = out;
  }
  return true;
}

function accountParam(ctx: PathContext, q: URLSearchParams, field: string): AccountEntry | null {
  const id = q.get(field) ?? "";
  if (!StrKey.isValidEd25519PublicKey(id)) {
    throw new PathQueryError(
      field,
      "Account ID must start with `G` and contain 56 alphanum characters",
    );
  }
  return ctx.state.getAccount(id) ?? null;
}

function sortBySource(
  records: PathRecord[],
  key: "source_amount" | "destination_amount",
  desc: boolean,
) {
  const n = (r: PathRecord) => BigInt(r[key].replace(".", ""));
  return records.sort((a, b) => {
    const d = n(a) - n(b);
    const c = d === 0n ? a.path.length - b.path.length : d < 0n ? -1 : 1;
    return desc && d !== 0n ? -c : c;
  });
}

/** GET /paths/strict-receive: what each source asset costs to deliver `destination_amount`. */
export function strictReceivePaths(ctx: PathContext, q: URLSearchParams): PathRecord[] {
  const dest = assetParam(q, "destination");
  const destAmount = amountParam(q, "destination_amount");
  const hasAccount = q.has("source_account");
  if (hasAccount === q.has("source_assets")) {
    throw new PathQueryError(
      "source_assets",
      "provide either source_account or source_assets, but not both",
    );
  }
  let sources: Array<[Asset, bigint | null]>;
  let sender: string | undefined;
  if (hasAccount) {
    const account = accountParam(ctx, q, "source_account");
    if (!account) return [];
    sender = account.id;
    sources = holdings(ctx, account);
  } else {
    sources = assetList("source_assets", q.get("source_assets") ?? "").map((a) => [a, null]);
  }
  const records: PathRecord[] = [];
  for (const [source, balance] of sources) {
    const r = route(ctx, source, dest);
    if (!r) continue;
    let sendAmount = destAmount;
    for (let i = r.hops.length - 1; i >= 0; i--) sendAmount = r.hops[i].backward(sendAmount);
    if (sendAmount <= 0n || sendAmount > INT64_MAX) continue;
    if (balance !== null && balance < sendAmount) continue;
    if (!fillable(ctx, r.hops, sendAmount, sender)) continue;
    records.push(record(source, sendAmount, dest, destAmount, r.path));
  }
  return sortBySource(records, "source_amount", false);
}

/** GET /paths/strict-send: what `source_amount` of the source asset delivers in each asset. */
export function strictSendPaths(ctx: PathContext, q: URLSearchParams): PathRecord[] {
  const source = assetParam(q, "source");
  const sendAmount = amountParam(q, "source_amount");
  const hasAccount = q.has("destination_account");
  if (hasAccount === q.has("destination_assets")) {
    throw new PathQueryError(
      "destination_assets",
      "provide either destination_account or destination_assets, but not both",
    );
  }
  let dests: Asset[];
  if (hasAccount) {
    const account = accountParam(ctx, q, "destination_account");
    if (!account) return [];
    dests = holdings(ctx, account).map(([a]) => a);
  } else {
    dests = assetList("destination_assets", q.get("destination_assets") ?? "");
  }
  const records: PathRecord[] = [];
  for (const dest of dests) {
    const r = route(ctx, source, dest);
    if (!r) continue;
    let destAmount = sendAmount;
    for (const hop of r.hops) destAmount = hop.forward(destAmount);
    if (destAmount <= 0n || !fillable(ctx, r.hops, sendAmount)) continue;
    records.push(record(source, sendAmount, dest, destAmount, r.path));
  }
  return sortBySource(records, "destination_amount", true);
}

function record(
  source: Asset,
  sendAmount: bigint,
  dest: Asset,
  destAmount: bigint,
  path: Asset[],
): PathRecord {
  return {
    ...prefixed("source", source),
    source_amount: formatStroops(sendAmount),
    ...prefixed("destination", dest),
    destination_amount: formatStroops(destAmount),
    path: path.map(assetJson),
  } as PathRecord;
}
