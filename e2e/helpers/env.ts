import http from "node:http";
import type { AddressInfo } from "node:net";
import { Keypair, TransactionBuilder } from "@stellar/stellar-sdk";
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
 * One e2e environment per test file: a testnet and a mainnet local ledger, a stub price source,
 * a fresh PostgreSQL database and the built app (server.ts over `next build`) with its worker
 * running in-process, as `npm start` runs it, the watcher ticking every second.
 */
export type E2eEnv = {
  app: RunningApp;
  testnet: Chain;
  mainnet: Chain;
  /** The XLM price the stub source answers (USD). */
  xlmUsd: number;
  /** A database client for arranging states the UI cannot reach quickly (expiry). */
  databaseUrl: string;
  stop: () => Promise<void>;
};

export const XLM_USD = 0.125;

export async function startEnv(): Promise<E2eEnv> {
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
      PRICE_SOURCE_URL: price.url,
      PRICE_FETCH_TIMEOUT_MS: "1000",
      WORKER: "on",
      WATCHER_INTERVAL_MS: "1000",
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
    databaseUrl: db.url,
    stop: async () => {
      await app.stop();
      await Promise.allSettled([testnet.ledger.stop(), mainnet.ledger.stop(), price.stop()]);
      await db.drop().catch(() => {});
    },
  };
}

/** CoinGecko's answer shape, from 127.0.0.1 (the app never leaves the machine in tests). */
async function startPriceSource(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ stellar: { usd: XLM_USD } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v3/simple/price?ids=stellar&vs_currencies=usd`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
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
