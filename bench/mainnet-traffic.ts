/**
 * Mainnet-like traffic for the local ledger (bench/mainnet.ts): accounts created and funded
 * straight through the ledger's engine, then every ledger's transactions built and signed
 * before the run starts, so the generator costs almost nothing while the worker is measured.
 * The ledger still validates and applies each one as a real signed transaction.
 */
import { randomBytes } from "node:crypto";
import {
  Account,
  Asset,
  Keypair,
  Memo,
  Operation,
  StrKey,
  TimeoutInfinite,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import type { LocalLedger } from "../ledger/server";

export type TrafficShape = {
  /** Transactions per ledger (besides the one matching payment). */
  txPerLedger: number;
  /** Operations per transaction. */
  opsPerTx: number;
  /** Accounts the transactions' sources rotate among. */
  sources: number;
};

/** One ledger's worth of signed envelopes, the matching payment among them. */
export type LedgerBatch = { envelopes: string[]; match: { invoiceIndex: number } };

/**
 * The operation mix (per 20 operations): payments in XLM and USDC, path payments both ways,
 * account creation, and non-payment operations (trustline limit changes, data entries, home
 * domains), roughly the share of payments the public network shows.
 */
const MIX = [
  ...Array(7).fill("payment"),
  ...Array(2).fill("payment_usdc"),
  "path_send",
  "path_receive",
  "create_account",
  ...Array(3).fill("change_trust"),
  ...Array(3).fill("manage_data"),
  ...Array(2).fill("set_options"),
] as const;

/**
 * Set-up ledgers: the signed envelopes of each, in order. A fresh ledger with the same issuers
 * that replays them ends in the same state (same account sequence numbers), so the traffic
 * signed once serves every run (replaySetup).
 */
export type SetupSteps = string[][];

/** Submits envelopes and closes a ledger with them, remembering the step. */
function step(ledger: LocalLedger, steps: SetupSteps, envelopes: string[]): void {
  steps.push(envelopes);
  for (const env of envelopes) void ledger.core.submit(env);
  ledger.core.closeLedger();
}

export function replaySetup(ledger: LocalLedger, steps: SetupSteps): void {
  for (const envelopes of steps) {
    for (const env of envelopes) void ledger.core.submit(env);
    ledger.core.closeLedger();
  }
}

/** Creates accounts with `xlm` each from the root account, 100 per transaction. */
export function createAccounts(
  ledger: LocalLedger,
  steps: SetupSteps,
  keys: string[],
  xlm: string,
): void {
  const root = Keypair.master(ledger.networkPassphrase);
  const envelopes: string[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    const ops = keys
      .slice(i, i + 100)
      .map((destination) => Operation.createAccount({ destination, startingBalance: xlm }));
    // Built from the state plus what is queued, so submit each before building the next.
    const env = ledger.core.buildInternal(root, ops);
    envelopes.push(env);
    void ledger.core.submit(env);
  }
  steps.push(envelopes);
  ledger.core.closeLedger();
}

/** Every source trusts USDC and holds some (issuer payments, 100 per transaction). */
function trustAndFundUsdc(
  ledger: LocalLedger,
  steps: SetupSteps,
  sources: Keypair[],
  usdc: Asset,
): void {
  step(
    ledger,
    steps,
    sources.map((kp) =>
      sign(ledger, kp, seqOf(ledger, kp), [Operation.changeTrust({ asset: usdc })]),
    ),
  );
  const issuer = Keypair.fromSecret(ledger.issuers.USDC.secret);
  const envelopes: string[] = [];
  for (let i = 0; i < sources.length; i += 100) {
    const ops = sources
      .slice(i, i + 100)
      .map((kp) => Operation.payment({ destination: kp.publicKey(), asset: usdc, amount: "1000" }));
    const env = ledger.core.buildInternal(issuer, ops);
    envelopes.push(env);
    void ledger.core.submit(env);
  }
  steps.push(envelopes);
  ledger.core.closeLedger();
}

function seqOf(ledger: LocalLedger, kp: Keypair): bigint {
  const entry = ledger.core.state.getAccount(kp.publicKey());
  if (!entry) throw new Error(`no account ${kp.publicKey()}`);
  return entry.seqNum;
}

function sign(
  ledger: LocalLedger,
  kp: Keypair,
  seq: bigint,
  ops: xdr.Operation[],
  memo?: Memo,
): string {
  const b = new TransactionBuilder(new Account(kp.publicKey(), seq.toString()), {
    fee: String(100 * ops.length),
    networkPassphrase: ledger.networkPassphrase,
  });
  for (const op of ops) b.addOperation(op);
  if (memo) b.addMemo(memo);
  const tx = b.setTimeout(TimeoutInfinite).build();
  tx.sign(kp);
  return tx.toXDR();
}

/**
 * Sets up the sources and payers and pre-signs `ledgers` batches. Each batch holds
 * `txPerLedger` background transactions (some with text memos that look like invoice numbers
 * but pay no freelancer) and one payment of `invoice.amount` XLM with the invoice's number
 * as its memo to its wallet, at a random place in the batch.
 */
export function prepareTraffic(
  ledger: LocalLedger,
  steps: SetupSteps,
  shape: TrafficShape,
  ledgers: number,
  invoiceFor: (k: number) => { index: number; wallet: string; number: string; amount: string },
): LedgerBatch[] {
  const usdc = new Asset("USDC", ledger.issuers.USDC.issuer);
  const sources = Array.from({ length: shape.sources }, () => Keypair.random());
  const payers = Array.from({ length: 20 }, () => Keypair.random());
  createAccounts(
    ledger,
    steps,
    [...sources, ...payers].map((kp) => kp.publicKey()),
    "10000",
  );
  trustAndFundUsdc(ledger, steps, sources, usdc);
  const seqs = new Map<string, bigint>();
  /** The account's sequence number before its next transaction (the builder adds one). */
  const next = (kp: Keypair) => {
    const current = seqs.get(kp.publicKey()) ?? seqOf(ledger, kp);
    seqs.set(kp.publicKey(), current + 1n);
    return current;
  };
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)];
  let rotation = 0;
  const batches: LedgerBatch[] = [];
  for (let k = 0; k < ledgers; k++) {
    const envelopes: string[] = [];
    for (let t = 0; t < shape.txPerLedger; t++) {
      const source = sources[rotation++ % sources.length];
      const ops = Array.from({ length: shape.opsPerTx }, () =>
        backgroundOp(pick(MIX), source, () => pick(sources).publicKey(), usdc),
      );
      const r = Math.random();
      const memo =
        r < 0.1
          ? Memo.text(`INV-${String(Math.floor(Math.random() * 10) + 1).padStart(4, "0")}`)
          : r < 0.3
            ? Memo.id(String(Math.floor(Math.random() * 1e9)))
            : undefined;
      envelopes.push(sign(ledger, source, next(source), ops, memo));
    }
    const inv = invoiceFor(k);
    const payer = payers[k % payers.length];
    const payment = sign(
      ledger,
      payer,
      next(payer),
      [Operation.payment({ destination: inv.wallet, asset: Asset.native(), amount: inv.amount })],
      Memo.text(inv.number),
    );
    envelopes.splice(Math.floor(Math.random() * (envelopes.length + 1)), 0, payment);
    batches.push({ envelopes, match: { invoiceIndex: inv.index } });
  }
  return batches;
}

function backgroundOp(
  kind: (typeof MIX)[number],
  source: Keypair,
  other: () => string,
  usdc: Asset,
): xdr.Operation {
  let to = other();
  while (to === source.publicKey()) to = other();
  const small = (Math.floor(Math.random() * 1000) / 1000 + 0.001).toFixed(3);
  switch (kind) {
    case "payment":
      return Operation.payment({ destination: to, asset: Asset.native(), amount: small });
    case "payment_usdc":
      return Operation.payment({ destination: to, asset: usdc, amount: small });
    case "path_send":
      return Operation.pathPaymentStrictSend({
        sendAsset: Asset.native(),
        sendAmount: small,
        destination: to,
        destAsset: usdc,
        destMin: "0.0000001",
        path: [],
      });
    case "path_receive":
      return Operation.pathPaymentStrictReceive({
        sendAsset: usdc,
        sendMax: "100",
        destination: to,
        destAsset: Asset.native(),
        destAmount: small,
        path: [],
      });
    case "create_account":
      // Any 32 bytes make a valid account id; no key pair is needed for a destination.
      return Operation.createAccount({
        destination: StrKey.encodeEd25519PublicKey(randomBytes(32)),
        startingBalance: "1",
      });
    case "change_trust":
      return Operation.changeTrust({
        asset: usdc,
        limit: String(10_000 + Math.floor(Math.random() * 1e6)),
      });
    case "manage_data":
      return Operation.manageData({
        name: `k${Math.floor(Math.random() * 4)}`,
        value: randomBytes(16).toString("hex"),
      });
    case "set_options":
      return Operation.setOptions({ homeDomain: `d${Math.floor(Math.random() * 1e6)}.example` });
    default:
      throw new Error(`unknown operation kind ${kind}`);
  }
}
