import {
  Account,
  Address,
  Asset,
  MuxedAccount,
  nativeToScVal,
  Operation,
  StrKey,
  scValToNative,
  type Transaction,
  TransactionBuilder,
  xdr,
} from "@stellar/stellar-base";
import { BusinessRuleError, UnavailableError } from "@/lib/domain/errors";
import { fromStroops, toStroops } from "@/lib/domain/money";
import type { PaymentOperation } from "@/lib/domain/payment-match";
import { ledgerError, NETWORK_UNAVAILABLE } from "./errors";
import type { PathAsset } from "./paths";

/**
 * Stellar Asset Contract calls (docs/decisions.md, Smart-wallet payers): a smart wallet (a
 * contract account, `C...`) pays through its asset's contract, `transfer(from, to, amount)`,
 * in an invoke_host_function operation; a G account (the wallet's fee payer) is the
 * transaction's source and pays the fee. Such a transaction is simulated through the
 * network's Stellar RPC (config `rpc`) for its footprint, resource fee and the authorization
 * entries the contract account signs, then assembled. Transactions are built with
 * @stellar/stellar-base; only the RPC client comes from the SDK, imported on first use (its
 * `minimal` build: no axios, no EventSource; ARCHITECTURE.md, Memory).
 */

/** A contract address (`C...`, a smart wallet or any contract account). */
export function isContractAddress(value: unknown): value is string {
  return typeof value === "string" && StrKey.isValidContract(value);
}

/** The Stellar Asset Contract id (`C...`) of an asset on a network. */
export function assetContractId(asset: PathAsset, networkPassphrase: string): string {
  const sdkAsset = asset.issuer === null ? Asset.native() : new Asset(asset.code, asset.issuer);
  return sdkAsset.contractId(networkPassphrase);
}

/**
 * The unsigned SAC `transfer(from, to, amount)` of `asset` (before simulation: no footprint,
 * no resource fee, no authorization). `to` may be a G, an M (muxed) or a C address; `source`
 * is the G account that sends the transaction and pays its fee. No memo: the network refuses
 * one on a Soroban transaction (the recipient tells invoices apart by a muxed `to`).
 */
export function buildAssetTransfer(opts: {
  source: { id: string; sequence: string };
  from: string;
  to: string;
  asset: PathAsset;
  /** Decimal string, at most 7 decimals. */
  amount: string;
  networkPassphrase: string;
  baseFee: number;
  /** The end of its time bounds (PAYMENT_TIMEOUT_SECONDS from now, or a quote's expiry). */
  validUntil: Date;
}): Transaction {
  return new TransactionBuilder(new Account(opts.source.id, opts.source.sequence), {
    fee: String(opts.baseFee),
    networkPassphrase: opts.networkPassphrase,
    timebounds: {
      minTime: 0,
      maxTime: Math.floor(opts.validUntil.getTime() / 1000),
    },
  })
    .addOperation(
      Operation.invokeContractFunction({
        contract: assetContractId(opts.asset, opts.networkPassphrase),
        function: "transfer",
        args: [
          Address.fromString(opts.from).toScVal(),
          Address.fromString(opts.to).toScVal(),
          nativeToScVal(toStroops(opts.amount), { type: "i128" }),
        ],
      }),
    )
    .build();
}

/**
 * A refund to a contract account (docs/decisions.md, Smart-wallet payers): the SAC
 * `transfer(from = the freelancer's G, to = the C, amount)`, the freelancer's G the
 * transaction's source, so its signature on the envelope authorizes the transfer
 * (source-account credentials; nothing else to sign). No memo: the network takes none on a
 * Soroban transaction.
 */
export function buildRefundTransfer(opts: Omit<Parameters<typeof buildAssetTransfer>[0], "from">) {
  return buildAssetTransfer({ ...opts, from: opts.source.id });
}

/** A simulated and assembled invocation, ready to be authorized and signed. */
export type AssembledInvocation = {
  /** The assembled transaction (footprint, resource fee, unsigned auth entries), base64. */
  xdr: string;
  hash: string;
  /**
   * The authorization entries with address credentials (base64 `SorobanAuthorizationEntry`):
   * what the `from` account signs (SDK `authorizeEntry`) before the source signs the envelope.
   * Empty when the source account's own signature authorizes it (a G paying for itself).
   */
  authEntries: string[];
  /** The ledger the simulation ran at: authorizations expire some ledgers after it. */
  latestLedger: number;
  /** The fee the assembled transaction offers (base fee plus resource fee), in stroops. */
  fee: string;
};

/** Ledgers an authorization entry stays valid after the simulation's ledger (about 5 minutes). */
export const AUTH_VALID_LEDGERS = 60;

type RpcModule = typeof import("@stellar/stellar-sdk/minimal/rpc");
let rpcModule: Promise<RpcModule> | null = null;
/** The SDK's RPC client, loaded on the first contract payment only. */
function loadRpc(): Promise<RpcModule> {
  rpcModule ??= import("@stellar/stellar-sdk/minimal/rpc");
  return rpcModule;
}

/**
 * Simulates `tx` on the Stellar RPC at `rpcUrl` and assembles it (the SDK's
 * `rpc.Server.simulateTransaction` and `assembleTransaction`). A simulation that fails answers
 * 400: an underfunded contract account the ledger's op_underfunded message (naming the
 * asset), anything else with the simulation's own error; an unreachable RPC 503.
 */
export async function simulateAndAssemble(
  rpcUrl: string | undefined,
  tx: Transaction,
  sentAsset: string,
): Promise<AssembledInvocation> {
  if (!rpcUrl) throw new UnavailableError(NO_RPC);
  const { Server, Api, assembleTransaction } = await loadRpc();
  const server = new Server(rpcUrl, { allowHttp: rpcUrl.startsWith("http://"), timeout: 15_000 });
  let sim: Awaited<ReturnType<typeof server.simulateTransaction>>;
  try {
    sim = await server.simulateTransaction(tx);
  } catch {
    throw new UnavailableError(NETWORK_UNAVAILABLE);
  }
  if (Api.isSimulationError(sim)) throw simulationError(sim.error, sentAsset);
  if (Api.isSimulationRestore(sim)) {
    throw new BusinessRuleError(ARCHIVED_STATE);
  }
  const assembled = assembleTransaction(tx, sim).build() as Transaction;
  const [op] = assembled.operations;
  const auth = op && op.type === "invokeHostFunction" ? (op.auth ?? []) : [];
  return {
    xdr: assembled.toXDR(),
    hash: assembled.hash().toString("hex"),
    authEntries: auth
      .filter(
        (e) =>
          e.credentials().switch().value ===
          xdr.SorobanCredentialsType.sorobanCredentialsAddress().value,
      )
      .map((e) => e.toXDR("base64")),
    latestLedger: sim.latestLedger,
    fee: assembled.fee,
  };
}

export const ARCHIVED_STATE =
  "The asset contract's state must be restored first (an archived entry); try again later.";

export const NO_RPC =
  "No Stellar RPC is configured for this network: contract accounts cannot pay here.";

/**
 * The asset contract's "balance is not sufficient" (its error #10) is the ledger's
 * op_underfunded; a missing trustline (#13) op_no_trust; the rest names the simulation's
 * error, first line only.
 */
function simulationError(error: string, sentAsset: string) {
  if (/not sufficient|insufficient|Error\(Contract, #10\)/i.test(error)) {
    return ledgerError("op_underfunded", sentAsset);
  }
  if (/trustline|Error\(Contract, #13\)/i.test(error)) return ledgerError("op_no_trust");
  const first = error.split("\n")[0].slice(0, 200);
  return new BusinessRuleError(`The payment could not be simulated: ${first}`);
}

/**
 * A SAC `transfer(from, to, amount)` read from an unsubmitted envelope's invoke_host_function
 * operation, as the classifier's `contract_transfer` (to the base G with the muxed id of an
 * `M` destination); null for any other invocation, or a contract that is not one of `assets`'
 * asset contracts.
 */
export function contractTransferOf(
  op: Operation,
  assets: readonly PathAsset[],
  networkPassphrase: string,
): PaymentOperation | null {
  if (op.type !== "invokeHostFunction") return null;
  const fn = op.func;
  if (fn.switch().value !== xdr.HostFunctionType.hostFunctionTypeInvokeContract().value) {
    return null;
  }
  const call = fn.invokeContract();
  if (call.functionName().toString() !== "transfer" || call.args().length !== 3) return null;
  let contract: string;
  let from: string;
  let to: string;
  let stroops: bigint;
  try {
    contract = Address.fromScAddress(call.contractAddress()).toString();
    const [fromArg, toArg, amountArg] = call.args();
    from = Address.fromScVal(fromArg).toString();
    to = Address.fromScVal(toArg).toString();
    if (amountArg.switch().value !== xdr.ScValType.scvI128().value) return null;
    stroops = BigInt(scValToNative(amountArg));
  } catch {
    return null;
  }
  const asset = assets.find((a) => assetContractId(a, networkPassphrase) === contract);
  if (!asset || stroops <= 0n) return null;
  let toMuxedId: string | null = null;
  if (StrKey.isValidMed25519PublicKey(to)) {
    const muxed = MuxedAccount.fromAddress(to, "0");
    toMuxedId = muxed.id();
    to = muxed.baseAccount().accountId();
  }
  return {
    type: "contract_transfer",
    from,
    to,
    toMuxedId,
    assetCode: asset.code,
    assetIssuer: asset.issuer,
    amount: fromStroops(stroops),
  };
}
