import { Keypair, TransactionBuilder } from "@stellar/stellar-sdk";
import { DEFAULT_PRICES, type LocalPriceSource, startPriceSource } from "@/scripts/price-source";
import { type Api, client } from "@/tests/helpers/api";
import { type RunningApp, startApp } from "@/tests/helpers/app";
import { signIn } from "@/tests/helpers/auth";
import { createTestDatabase } from "@/tests/helpers/postgres";
import {
  type Chain,
  chainEnv,
  funded,
  MAINNET,
  startChain,
  TESTNET,
} from "@/tests/helpers/stellar";

/**
 * One e2e environment per test file: a testnet and a mainnet local ledger, the project's local
 * price source (scripts/price-source.ts: XLM-USD, XLM-EUR and EUR-USD, movable per test),
 * a fresh PostgreSQL database and the built app (server.ts over `next build`) with its worker
 * running in-process, as `npm start` runs it, the watcher ticking every second.
 */
export type E2eEnv = {
  app: RunningApp;
  testnet: Chain;
  mainnet: Chain;
  /** The XLM price the local source answers (USD). */
  xlmUsd: number;
  /** The local price source the app asks (both PRICE_SOURCE_URL and PRICE_SOURCE_EUR_URL). */
  prices: LocalPriceSource;
  /** A database client for arranging states the UI cannot reach quickly (expiry). */
  databaseUrl: string;
  stop: () => Promise<void>;
};

/** 1 XLM in USD and EUR as the local source starts (scripts/price-source.ts). */
export const XLM_USD = DEFAULT_PRICES.stellar.usd;
export const XLM_EUR = DEFAULT_PRICES.stellar.eur;

/** `extra` adds to (or overrides) the app's environment, e.g. `SMTP_URL` for a mail catcher. */
export async function startEnv(extra: Record<string, string> = {}): Promise<E2eEnv> {
  const [testnet, mainnet, db, price] = await Promise.all([
    startChain(TESTNET),
    startChain(MAINNET),
    createTestDatabase(),
    startPriceSource(),
  ]);
  let app: RunningApp;
  try {
    app = await startApp({
      DATABASE_URL: db.url,
      ...chainEnv(testnet, mainnet),
      RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
      RATE_LIMIT_INVOICES_PER_HOUR: "100000",
      RATE_LIMIT_LINKS_PER_HOUR: "100000",
      RATE_LIMIT_PAY_INTENT_PER_5_MINUTES: "100000",
      RATE_LIMIT_PRICE_PER_MINUTE: "100000",
      RATE_LIMIT_COSTLY_PER_MINUTE: "100000",
      ...price.env,
      PRICE_FETCH_TIMEOUT_MS: "1000",
      WORKER: "on",
      WATCHER_INTERVAL_MS: "1000",
      ...extra,
    });
  } catch (err) {
    await Promise.allSettled([testnet.ledger.stop(), mainnet.ledger.stop(), price.stop()]);
    await db.drop().catch(() => {});
    throw err;
  }
  return {
    app,
    testnet,
    mainnet,
    xlmUsd: XLM_USD,
    prices: price,
    databaseUrl: db.url,
    stop: async () => {
      await app.stop();
      await Promise.allSettled([testnet.ledger.stop(), mainnet.ledger.stop(), price.stop()]);
      await db.drop().catch(() => {});
    },
  };
}

export type Freelancer = { keypair: Keypair; wallet: string; token: string; api: Api };

/** A funded freelancer signed in through the API (for arranging data, not for the UI). */
export async function apiFreelancer(env: E2eEnv, chain: Chain = env.testnet): Promise<Freelancer> {
  const keypair = await funded(chain, Keypair.random());
  const { token } = await signIn(env.app.url, keypair);
  return { keypair, wallet: keypair.publicKey(), token, api: client(env.app.url, token) };
}

/** Creates and sends an invoice through the API; returns its Form B body. */
export async function sentInvoice(
  f: Freelancer,
  body: Record<string, unknown>,
  { send = true }: { send?: boolean } = {},
): Promise<any> {
  const created = await f.api.post("/api/invoices", body);
  if (created.status !== 201)
    throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  if (!send) return created.body;
  const sent = await f.api.post(`/api/invoices/${created.body.id}/send`);
  if (sent.status !== 200) throw new Error(`send: ${sent.status} ${JSON.stringify(sent.body)}`);
  return { ...created.body, status: "PENDING" };
}

/** Pays an invoice the way the checkout does, from Node: pay-intent, sign, submit. */
export async function payThroughApi(env: E2eEnv, invoiceId: string, payer: Keypair): Promise<any> {
  const anon = client(env.app.url);
  const intent = await anon.post(`/api/payments/${invoiceId}/pay-intent`, {
    senderPublicKey: payer.publicKey(),
    networkPassphrase: env.testnet.passphrase,
  });
  if (intent.status !== 200) throw new Error(`pay-intent: ${JSON.stringify(intent.body)}`);
  const tx = TransactionBuilder.fromXDR(intent.body.transactionXdr, env.testnet.passphrase);
  tx.sign(payer);
  const submitted = await anon.post("/api/payments/submit", {
    invoiceId,
    signedTransactionXdr: tx.toXDR(),
  });
  if (submitted.status !== 200) throw new Error(`submit: ${JSON.stringify(submitted.body)}`);
  return submitted.body;
}
