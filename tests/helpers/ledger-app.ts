import postgres from "postgres";
import { type LocalPriceSource, startPriceSource } from "@/scripts/price-source";
import { type Api, client } from "./api";
import { type RunningApp, startApp } from "./app";
import { createTestDatabase } from "./postgres";
import { type Chain, chainEnv, MAINNET, startChain, TESTNET } from "./stellar";

/** The real server on a fresh database and two local ledgers (testnet and mainnet). */
export type LedgerApp = {
  testnet: Chain;
  mainnet: Chain;
  app: RunningApp;
  db: Awaited<ReturnType<typeof createTestDatabase>>;
  sql: postgres.Sql;
  /** A client without credentials (the payer). */
  anon: Api;
  /** The local price source the server reads (tests move its rates). */
  prices: LocalPriceSource;
};

/** Starts a suite's ledgers, database and server, with limits no suite reaches by itself. */
export async function startLedgerApp(env: Record<string, string> = {}): Promise<LedgerApp> {
  const testnet = await startChain(TESTNET);
  const mainnet = await startChain(MAINNET);
  const prices = await startPriceSource();
  const db = await createTestDatabase();
  const app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    RATE_LIMIT_INVOICES_PER_HOUR: "100000",
    RATE_LIMIT_PAY_INTENT_PER_5_MINUTES: "100000",
    ...chainEnv(testnet, mainnet),
    ...prices.env,
    ...env,
  });
  const sql = postgres(db.url, { max: 4, onnotice: () => {} });
  return { testnet, mainnet, app, db, sql, anon: client(app.url), prices };
}

/** Stops what startLedgerApp started (whatever of it did start). */
export async function stopLedgerApp(s: Partial<LedgerApp>): Promise<void> {
  await s.sql?.end();
  await s.app?.stop();
  await s.testnet?.ledger.stop();
  await s.mainnet?.ledger.stop();
  await s.prices?.stop();
  await s.db?.drop();
}
