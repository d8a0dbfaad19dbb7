import {
  Asset,
  type FeeBumpTransaction,
  Horizon,
  Keypair,
  Memo,
  Networks,
  Operation,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { type LocalLedger, startLedger } from "@/ledger/server";

export const TESTNET = Networks.TESTNET;
export const MAINNET = Networks.PUBLIC;

export type Chain = {
  ledger: LocalLedger;
  server: Horizon.Server;
  passphrase: string;
  usdc: Asset;
  eurc: Asset;
};

/** A local ledger (closing a ledger on every submission) and an SDK client for it. */
export async function startChain(
  passphrase: string,
  opts: { now?: () => number; manualClose?: boolean } = {},
): Promise<Chain> {
  const ledger = await startLedger({
    networkPassphrase: passphrase,
    closeIntervalMs: 0,
    closeOnSubmit: !opts.manualClose,
    now: opts.now,
  });
  return {
    ledger,
    server: new Horizon.Server(ledger.url, { allowHttp: true }),
    passphrase,
    usdc: new Asset("USDC", ledger.issuers.USDC.issuer),
    eurc: new Asset("EURC", ledger.issuers.EURC.issuer),
  };
}

/** The app environment that points at two local chains and trusts their issuers. */
export function chainEnv(testnet: Chain, mainnet: Chain): Record<string, string> {
  return {
    HORIZON_TESTNET_URL: testnet.ledger.url,
    HORIZON_MAINNET_URL: mainnet.ledger.url,
    RPC_TESTNET_URL: `${testnet.ledger.url}/rpc`,
    RPC_MAINNET_URL: `${mainnet.ledger.url}/rpc`,
    USDC_ISSUER_TESTNET: testnet.ledger.issuers.USDC.issuer,
    EURC_ISSUER_TESTNET: testnet.ledger.issuers.EURC.issuer,
    USDC_ISSUER_MAINNET: mainnet.ledger.issuers.USDC.issuer,
    EURC_ISSUER_MAINNET: mainnet.ledger.issuers.EURC.issuer,
  };
}

export async function funded(chain: Chain, kp: Keypair = Keypair.random()): Promise<Keypair> {
  await chain.server.friendbot(kp.publicKey()).call();
  return kp;
}

export async function build(
  chain: Chain,
  signer: Keypair,
  ops: xdr.Operation[],
  opts: {
    memo?: Memo;
    fee?: string;
    passphrase?: string;
    timeoutSeconds?: number;
    sequenceOffset?: number;
  } = {},
): Promise<Transaction> {
  const account = await chain.server.loadAccount(signer.publicKey());
  for (let i = 0; i < (opts.sequenceOffset ?? 0); i++) account.incrementSequenceNumber();
  let b = new TransactionBuilder(account, {
    fee: opts.fee ?? "100",
    networkPassphrase: opts.passphrase ?? chain.passphrase,
  });
  for (const op of ops) b = b.addOperation(op);
  if (opts.memo) b = b.addMemo(opts.memo);
  const tx = b.setTimeout(opts.timeoutSeconds ?? 120).build();
  tx.sign(signer);
  return tx;
}

/** Submits through the SDK; resolves to the hash whether the ledger accepted it or not. */
export async function send(chain: Chain, tx: Transaction | FeeBumpTransaction): Promise<string> {
  try {
    await chain.server.submitTransaction(tx, { skipMemoRequiredCheck: true });
  } catch {
    // failed transactions still have a hash (and may be in the ledger as failed)
  }
  return tx.hash().toString("hex");
}

export async function trust(chain: Chain, kp: Keypair, asset: Asset, limit?: string) {
  const tx = await build(chain, kp, [Operation.changeTrust({ asset, limit })]);
  await chain.server.submitTransaction(tx);
}

/** An account holding `amount` of the asset (trustline added first). */
export async function holder(chain: Chain, asset: Asset, amount: string): Promise<Keypair> {
  const kp = await funded(chain);
  await trust(chain, kp, asset);
  await chain.ledger.fund(kp.publicKey(), amount, asset.getCode());
  return kp;
}

export function pay(
  chain: Chain,
  from: Keypair,
  to: string,
  asset: Asset,
  amount: string,
  memo: Memo,
  extra: { fee?: string; passphrase?: string } = {},
) {
  return build(chain, from, [Operation.payment({ destination: to, asset, amount })], {
    memo,
    ...extra,
  });
}

export { Asset, Keypair, Memo, Operation, TransactionBuilder };
