/**
 * CAP-67 unified asset events for the classic operations the ledger applies, as the Stellar
 * Asset Contract (SAC) of each asset emits them since Protocol 23:
 *
 *   transfer: topics [symbol "transfer", from: Address, to: Address, asset: String]
 *   mint:     topics [symbol "mint", to: Address, asset: String]      (the issuer sends)
 *   burn:     topics [symbol "burn", from: Address, asset: String]    (the issuer receives)
 *
 * `asset` is the SEP-11 string ("native" or "CODE:ISSUER"); the contract is the asset's SAC
 * (`Asset.contractId(passphrase)`). The data is the i128 amount, or a map
 * `{ amount: i128, to_muxed_id: u64 | bytes | string }` when the destination is muxed (its id)
 * or, for a G destination, when the transaction has a memo (id: u64, text: string, hash and
 * return: bytes), as CAP-67 specifies. Addresses in topics are always the base G account.
 *
 * Events are derived from the stored operation records (ledger/records.ts), so they exist for
 * every ledger the state holds, snapshots included. Failed transactions emit none.
 */
import { Address, Asset, StrKey, xdr } from "@stellar/stellar-sdk";
import { toStroops } from "./amount";
import { changeEvent, changesFromDetails } from "./soroban";
import type { OpRecord, TxRecord } from "./state";

export interface AssetEvent {
  /** "<19-digit TOID>-<10-digit index>", the RPC event id and paging token */
  id: string;
  /**
   * TOID of the event's operation as Stellar RPC counts it: ledger << 32 | tx order << 12 |
   * op index, the op index 0-based (Horizon's operation ids are 1-based: this is id - 1)
   */
  opToid: bigint;
  index: number;
  ledger: number;
  closeTime: number;
  txHash: string;
  /** application order of the transaction, 1-based */
  transactionIndex: number;
  /** 0-based */
  operationIndex: number;
  contractId: string;
  topics: xdr.ScVal[];
  value: xdr.ScVal;
}

type Detail = Record<string, unknown>;

function assetOf(d: Detail, prefix = ""): Asset {
  if (d[`${prefix}asset_type`] === "native") return Asset.native();
  return new Asset(String(d[`${prefix}asset_code`]), String(d[`${prefix}asset_issuer`]));
}

/** SEP-11 canonical string of an asset. */
export function sep11(asset: Asset): string {
  return asset.isNative() ? "native" : `${asset.getCode()}:${asset.getIssuer()}`;
}

const sym = (s: string) => xdr.ScVal.scvSymbol(s);
const addr = (g: string) => new Address(g).toScVal();
const str = (s: string) => xdr.ScVal.scvString(s);

function i128(v: bigint): xdr.ScVal {
  return xdr.ScVal.scvI128(
    new xdr.Int128Parts({
      hi: xdr.Int64.fromString((v >> 64n).toString()),
      lo: xdr.Uint64.fromString((v & ((1n << 64n) - 1n)).toString()),
    }),
  );
}

/** The `to_muxed_id` of a transfer to `muxedTo` (an M id) or, failing that, from the memo. */
function muxedIdOf(tx: TxRecord, muxedTo: string | undefined): xdr.ScVal | undefined {
  if (muxedTo !== undefined) return xdr.ScVal.scvU64(xdr.Uint64.fromString(muxedTo));
  switch (tx.memoType) {
    case "id":
      return xdr.ScVal.scvU64(xdr.Uint64.fromString(String(tx.memo)));
    case "text":
      return xdr.ScVal.scvString(Buffer.from(tx.memoBytes ?? "", "base64"));
    case "hash":
    case "return":
      return xdr.ScVal.scvBytes(Buffer.from(String(tx.memo), "base64"));
    default:
      return undefined;
  }
}

function amountValue(amount: bigint, muxedId: xdr.ScVal | undefined): xdr.ScVal {
  if (!muxedId) return i128(amount);
  return xdr.ScVal.scvMap([
    new xdr.ScMapEntry({ key: sym("amount"), val: i128(amount) }),
    new xdr.ScMapEntry({ key: sym("to_muxed_id"), val: muxedId }),
  ]);
}

interface Movement {
  asset: Asset;
  from: string;
  to: string;
  amount: bigint;
  /** the destination's muxed id (decimal), when the destination was an M address */
  toMuxedId?: string;
  /** whether the memo may stand for to_muxed_id (the operation's final destination) */
  final: boolean;
}

/** SAC contract ids by passphrase and SEP-11 asset (each one a SHA-256 to compute). */
const sacIds = new Map<string, string>();
function sacId(asset: Asset, passphrase: string): string {
  const key = `${passphrase}\n${sep11(asset)}`;
  let id = sacIds.get(key);
  if (!id) {
    id = asset.contractId(passphrase);
    sacIds.set(key, id);
  }
  return id;
}

/** transfer, mint or burn for one asset movement, as the asset's SAC reports it. */
function eventFor(m: Movement, tx: TxRecord, passphrase: string) {
  const asset = m.asset;
  const issuer = asset.isNative() ? undefined : asset.getIssuer();
  const assetStr = str(sep11(asset));
  const muxed = m.final ? muxedIdOf(tx, m.toMuxedId) : undefined;
  let topics: xdr.ScVal[];
  let value: xdr.ScVal;
  if (issuer && m.from === issuer && m.to === issuer) {
    return undefined;
  } else if (issuer && m.from === issuer) {
    topics = [sym("mint"), addr(m.to), assetStr];
    value = amountValue(m.amount, muxed);
  } else if (issuer && m.to === issuer) {
    topics = [sym("burn"), addr(m.from), assetStr];
    value = i128(m.amount);
  } else {
    topics = [sym("transfer"), addr(m.from), addr(m.to), assetStr];
    value = amountValue(m.amount, muxed);
  }
  return { contractId: sacId(asset, passphrase), topics, value };
}

/** The issuer counterparty of a conversion between two different assets (one of them XLM). */
function counterparty(a: Asset, b: Asset): string {
  return a.isNative() ? b.getIssuer() : a.getIssuer();
}

/** The asset movements of one successful payment-like operation. */
function movements(op: OpRecord): Movement[] {
  const d = op.details;
  switch (op.type) {
    case "create_account":
      return [
        {
          asset: Asset.native(),
          from: String(d.funder),
          to: String(d.account),
          amount: toStroops(String(d.starting_balance)),
          final: true,
        },
      ];
    case "payment":
      return [
        {
          asset: assetOf(d),
          from: String(d.from),
          to: String(d.to),
          amount: toStroops(String(d.amount)),
          toMuxedId: d.to_muxed_id === undefined ? undefined : String(d.to_muxed_id),
          final: true,
        },
      ];
    case "path_payment_strict_receive":
    case "path_payment_strict_send": {
      const send = assetOf(d, "source_");
      const dest = assetOf(d);
      const toMuxedId = d.to_muxed_id === undefined ? undefined : String(d.to_muxed_id);
      const destAmount = toStroops(String(d.amount));
      const sendAmount = toStroops(String(d.source_amount));
      const hops = [send, ...(d.path as Detail[]).map((p) => assetOf(p)), dest].filter(
        (a, i, all) => i === 0 || !a.equals(all[i - 1]),
      );
      if (hops.length === 1) {
        return [
          {
            asset: dest,
            from: String(d.from),
            to: String(d.to),
            amount: destAmount,
            toMuxedId,
            final: true,
          },
        ];
      }
      // The source pays the first conversion's counterparty; the last conversion's
      // counterparty pays the destination (the ledger's conversions are against the issuers).
      return [
        {
          asset: send,
          from: String(d.from),
          to: counterparty(hops[0], hops[1]),
          amount: sendAmount,
          final: false,
        },
        {
          asset: dest,
          from: counterparty(hops[hops.length - 2], hops[hops.length - 1]),
          to: String(d.to),
          amount: destAmount,
          toMuxedId,
          final: true,
        },
      ];
    }
    default:
      return [];
  }
}

export function eventId(opToid: bigint, index: number): string {
  return `${opToid.toString().padStart(19, "0")}-${String(index).padStart(10, "0")}`;
}

/** The CAP-67 events of one operation record (none for failed transactions). */
export function opEvents(op: OpRecord, tx: TxRecord, passphrase: string): AssetEvent[] {
  if (!op.successful) return [];
  const opToid = BigInt(op.id) - 1n;
  const opIndex = Number(opToid & 0xfffn);
  const out: AssetEvent[] = [];
  const found =
    op.type === "invoke_host_function"
      ? contractCallEvents(op, passphrase)
      : movements(op).map((m) => eventFor(m, tx, passphrase));
  for (const e of found) {
    if (!e) continue;
    out.push({
      id: eventId(opToid, out.length),
      opToid,
      index: out.length,
      ledger: op.ledger,
      closeTime: op.closeTime,
      txHash: op.txHash,
      transactionIndex: tx.applicationOrder,
      operationIndex: opIndex,
      ...e,
    });
  }
  return out;
}

/**
 * The events of a Stellar Asset Contract call (ledger/soroban.ts), from its balance changes as
 * stored for Horizon: `to_muxed_id` only for a muxed destination (no memo: the transaction's
 * memo is not the destination of a contract call).
 */
function contractCallEvents(op: OpRecord, passphrase: string) {
  return changesFromDetails(op.details).map((c) => {
    const contractId = sacId(c.asset, passphrase);
    const body = changeEvent(c, contractId).body().v0();
    return { contractId, topics: body.topics(), value: body.data() };
  });
}

/** The XDR ContractEvent of an event (as in a transaction's meta). */
export function contractEventXdr(e: AssetEvent): xdr.ContractEvent {
  return new xdr.ContractEvent({
    ext: new xdr.ExtensionPoint(0),
    contractId: StrKey.decodeContract(e.contractId) as unknown as xdr.ContractId,
    type: xdr.ContractEventType.contract(),
    body: new xdr.ContractEventBody(
      0,
      new xdr.ContractEventV0({ topics: e.topics, data: e.value }),
    ),
  });
}
