/**
 * Test helpers: everything goes through the real SDK over HTTP, as the app will.
 */
import {
  type Account,
  Asset,
  type FeeBumpTransaction,
  Horizon,
  Keypair,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { type LedgerOptions, type LocalLedger, startLedger } from "../server";

export interface Ctx {
  ledger: LocalLedger;
  server: Horizon.Server;
  passphrase: string;
  usdc: Asset;
  eurc: Asset;
}

export async function setup(opts: Partial<LedgerOptions> = {}): Promise<Ctx> {
  const ledger = await startLedger({
    networkPassphrase: "Test SDF Network ; September 2015",
    closeIntervalMs: 0,
    closeOnSubmit: true,
    ...opts,
  });
  return {
    ledger,
    server: new Horizon.Server(ledger.url, { allowHttp: true }),
    passphrase: ledger.networkPassphrase,
    usdc: new Asset("USDC", ledger.issuers.USDC.issuer),
    eurc: new Asset("EURC", ledger.issuers.EURC.issuer),
  };
}

/** A new account funded by the ledger's friendbot (10,000 XLM). */
export async function funded(ctx: Ctx): Promise<Keypair> {
  const kp = Keypair.random();
  await ctx.server.friendbot(kp.publicKey()).call();
  return kp;
}

/** Builds and signs a transaction from `signer`'s current account state. */
export async function buildTx(
  ctx: Ctx,
  signer: Keypair,
  ops: xdr.Operation[],
  configure: (b: TransactionBuilder) => TransactionBuilder = (b) => b.setTimeout(60),
  opts: { fee?: string; account?: Account; signers?: Keypair[]; passphrase?: string } = {},
): Promise<Transaction> {
  const account = opts.account ?? (await ctx.server.loadAccount(signer.publicKey()));
  let builder = new TransactionBuilder(account, {
    fee: opts.fee ?? "100",
    networkPassphrase: opts.passphrase ?? ctx.passphrase,
  });
  for (const op of ops) builder = builder.addOperation(op);
  const tx = configure(builder).build();
  tx.sign(...(opts.signers ?? [signer]));
  return tx;
}

/** Submits like the app does; the 200 body is the full transaction resource. */
export async function submit(
  ctx: Ctx,
  tx: Transaction | FeeBumpTransaction,
): Promise<Horizon.HorizonApi.TransactionResponse> {
  const res = await ctx.server.submitTransaction(tx, { skipMemoRequiredCheck: true });
  return res as unknown as Horizon.HorizonApi.TransactionResponse;
}

export interface Failure {
  status: number;
  data: {
    type: string;
    title: string;
    status: number;
    extras?: {
      envelope_xdr: string;
      result_xdr: string;
      hash?: string;
      result_codes: { transaction: string; inner_transaction?: string; operations?: string[] };
    };
  };
}

/** The HTTP error of a rejected SDK call (Horizon problem body in `data`). */
export async function failure(p: Promise<unknown>): Promise<Failure> {
  try {
    await p;
  } catch (err) {
    // submitTransaction rejects with the HTTP client's error ({ status, data }); call builders
    // reject with NetworkError / NotFoundError whose `response` is the problem body itself.
    const response = (err as { response?: Failure | Failure["data"] }).response;
    if (!response) throw err;
    if ("data" in response) return { status: response.status, data: response.data };
    return { status: response.status, data: response };
  }
  throw new Error("expected the request to fail");
}

/** extras.result_codes of a failed submission. */
export async function codes(p: Promise<unknown>) {
  const f = await failure(p);
  if (!f.data.extras?.result_codes) throw new Error(`no result codes: ${JSON.stringify(f.data)}`);
  return f.data.extras.result_codes;
}

export function balanceOf(account: Horizon.AccountResponse, asset: Asset): string | undefined {
  for (const b of account.balances) {
    if (asset.isNative() && b.asset_type === "native") return b.balance;
    if (
      !asset.isNative() &&
      "asset_code" in b &&
      b.asset_code === asset.getCode() &&
      b.asset_issuer === asset.getIssuer()
    ) {
      return b.balance;
    }
  }
  return undefined;
}

export async function getJson(url: string, init?: RequestInit) {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, body: await res.json() };
}
