/**
 * `npm run dev:offline`: the whole product with no network. Starts a local testnet ledger
 * (:8001), a local public-network ledger (:8002) and a local price source (:8003,
 * scripts/price-source.ts), then the app pointed at them and trusting the ledgers' USDC/EURC
 * issuers. The app's data is kept in .data-offline (DATA_DIR when set, scripts/offline-env.ts),
 * the ledgers' state in its ledger/ folder. The pickers offer the demo wallet (DEMO_WALLET=on;
 * docs/decisions.md, Wallets). `--no-build` serves the existing build (NEXT_DIST_DIR) as it is:
 * e2e/demo-wallet.test.ts starts this script that way. Emails go to a local mail catcher
 * (scripts/mail-catcher.ts: SMTP on :2525, its page on :8025), never out.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startLedger } from "../ledger/server";
import { startMailCatcher } from "./mail-catcher";
import { offlineDataDir, offlineExplorers, offlineWebhookEnv } from "./offline-env";
import { startPriceSource } from "./price-source";

const root = path.resolve(import.meta.dirname, "..");
const dataDir = offlineDataDir(process.env, root);
const snapshots = path.join(dataDir, "ledger");
fs.mkdirSync(snapshots, { recursive: true });
const closeIntervalMs = Number(process.env.LEDGER_CLOSE_INTERVAL_MS ?? 5000);

const testnet = await startLedger({
  networkPassphrase: "Test SDF Network ; September 2015",
  port: Number(process.env.LEDGER_TESTNET_PORT ?? 8001),
  closeIntervalMs,
  snapshotFile: path.join(snapshots, "testnet.json"),
});
const mainnet = await startLedger({
  networkPassphrase: "Public Global Stellar Network ; September 2015",
  port: Number(process.env.LEDGER_PUBLIC_PORT ?? 8002),
  closeIntervalMs,
  snapshotFile: path.join(snapshots, "public.json"),
});
// Whatever .env says, prices come from here: offline mode never asks CoinGecko.
const prices = await startPriceSource({ port: Number(process.env.PRICE_SOURCE_PORT ?? 8003) });
// Whatever .env says, emails stay on this machine: the catcher shows them.
const mail = await startMailCatcher({
  port: Number(process.env.MAIL_CATCHER_PORT ?? 8025),
  smtpPort: Number(process.env.MAIL_CATCHER_SMTP_PORT ?? 2525),
});

const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  DATA_DIR: dataDir,
  HORIZON_TESTNET_URL: testnet.url,
  HORIZON_MAINNET_URL: mainnet.url,
  RPC_TESTNET_URL: `${testnet.url}/rpc`,
  RPC_MAINNET_URL: `${mainnet.url}/rpc`,
  ...offlineExplorers({ testnet: testnet.url, mainnet: mainnet.url }),
  USDC_ISSUER_TESTNET: testnet.issuers.USDC.issuer,
  EURC_ISSUER_TESTNET: testnet.issuers.EURC.issuer,
  USDC_ISSUER_MAINNET: mainnet.issuers.USDC.issuer,
  EURC_ISSUER_MAINNET: mainnet.issuers.EURC.issuer,
  ...prices.env,
  SMTP_URL: mail.smtpUrl,
  // The demo wallet, on these loopback ledgers only (lib/client/wallets/options.ts).
  DEMO_WALLET: "on",
  // Webhooks to a receiver on this machine (http://127.0.0.1:<port>/...), the only kind
  // that can work without DNS; both acknowledgements, as this runs the production build.
  ...offlineWebhookEnv(),
};
process.stdout.write(
  [
    "",
    `App data (embedded database): ${dataDir}`,
    "Local ledgers (Horizon API):",
    `  testnet  ${testnet.url}   USDC ${testnet.issuers.USDC.issuer}  EURC ${testnet.issuers.EURC.issuer}`,
    `  mainnet  ${mainnet.url}   USDC ${mainnet.issuers.USDC.issuer}  EURC ${mainnet.issuers.EURC.issuer}`,
    `Fund an account:   curl '${testnet.url}/friendbot?addr=G...'`,
    "Give it USDC:      curl -X POST " +
      testnet.url +
      '/local/fund -H \'content-type: application/json\' -d \'{"account":"G...","assetCode":"USDC","amount":"100"}\'',
    "(the account needs a USDC trustline first)",
    'In the browser: sign in and pay with "Demo wallet (local ledger only)" (README, Trying it offline).',
    `Local price source: ${prices.url} (XLM 0.125 USD, 1 EUR = 1.08 USD)`,
    "Move the XLM rate: curl -X POST " +
      prices.url +
      '/local/prices -d \'{"prices":{"stellar":{"usd":0.2,"eur":0.1852}}}\'',
    `Emails (mail catcher, nothing leaves this machine): ${mail.url}`,
    "Webhooks: receivers on this machine are allowed (http://127.0.0.1:<port>/...); Settings > Webhooks > Send test event",
    "",
  ].join("\n"),
);

const run = (command: string, args: string[]) =>
  new Promise<number>((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: "inherit" });
    child.on("exit", (code) => resolve(code ?? 1));
    const forward = (sig: NodeJS.Signals) => child.kill(sig);
    process.once("SIGINT", forward);
    process.once("SIGTERM", forward);
  });

const tsxBin = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
const dev = process.argv.includes("--dev");
const build = !dev && !process.argv.includes("--no-build");
// Builds only when the sources changed since the last build (scripts/build-if-needed.ts).
if (build && (await run(process.execPath, [tsxBin, "scripts/build-if-needed.ts"])) !== 0) {
  process.exit(1);
}
const code = dev
  ? await run(process.execPath, [tsxBin, "server.ts", "--dev"])
  : await run(process.execPath, [path.join(root, "dist", "server.mjs")]);
await testnet.stop();
await mainnet.stop();
await prices.stop();
await mail.stop();
process.exit(code);
