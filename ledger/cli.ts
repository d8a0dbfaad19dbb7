/**
 * Starts a local testnet ledger and a local public-network ledger side by side.
 *
 *   npm run ledger                              # testnet on :8001, public on :8002
 *   npm run ledger -- --close-interval 1000 --snapshot-dir .data/ledger
 *   npm run ledger -- --only testnet --testnet-port 9001
 *
 * Every flag has an environment variable (flags win); see ledger/README.md.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { Networks } from "@stellar/stellar-sdk";
import { type LocalLedger, startLedger } from "./server";

const { values } = parseArgs({
  options: {
    "testnet-port": { type: "string" },
    "public-port": { type: "string" },
    host: { type: "string" },
    "close-interval": { type: "string" },
    "snapshot-dir": { type: "string" },
    "info-file": { type: "string" },
    "xlm-rate": { type: "string" },
    only: { type: "string" },
    "no-public-friendbot": { type: "boolean" },
    "rpc-retention": { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});

if (values.help) {
  console.log(`Usage: tsx ledger/cli.ts [options]

  --testnet-port N      LEDGER_TESTNET_PORT       default 8001
  --public-port N       LEDGER_PUBLIC_PORT        default 8002
  --host H              LEDGER_HOST               default 127.0.0.1
  --close-interval MS   LEDGER_CLOSE_INTERVAL_MS  default 5000 (0 = only POST /local/close)
  --snapshot-dir DIR    LEDGER_SNAPSHOT_DIR       keep state in DIR/{testnet,public}.json
  --info-file FILE      LEDGER_INFO_FILE          write URLs and issuer keys as JSON
  --xlm-rate R          LEDGER_XLM_RATE           credit units per XLM for path payments
  --only NET            LEDGER_ONLY               testnet | public
  --no-public-friendbot LEDGER_PUBLIC_FRIENDBOT=0 no /friendbot on the public ledger
  --rpc-retention N     LEDGER_RPC_RETENTION_LEDGERS  Stellar RPC history window in ledgers
                                                  default 120960 (about 7 days at 5 s)

Issuer secrets (random when unset; reused from the snapshot when present):
  LEDGER_{TESTNET,PUBLIC}_{USDC,EURC}_ISSUER_SECRET, or LEDGER_{USDC,EURC}_ISSUER_SECRET for both.`);
  process.exit(0);
}

const env = process.env;
const num = (flag: string | undefined, name: string, fallback: number): number => {
  const raw = flag ?? env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name}: not a number: ${raw}`);
  return n;
};

const host = values.host ?? env.LEDGER_HOST ?? "127.0.0.1";
const closeIntervalMs = num(values["close-interval"], "LEDGER_CLOSE_INTERVAL_MS", 5000);
const snapshotDir = values["snapshot-dir"] ?? env.LEDGER_SNAPSHOT_DIR;
const infoFile = values["info-file"] ?? env.LEDGER_INFO_FILE;
const xlmRate = values["xlm-rate"] ?? env.LEDGER_XLM_RATE;
const only = values.only ?? env.LEDGER_ONLY;
const publicFriendbot = !values["no-public-friendbot"] && env.LEDGER_PUBLIC_FRIENDBOT !== "0";
const rpcRetentionLedgers = num(values["rpc-retention"], "LEDGER_RPC_RETENTION_LEDGERS", 120_960);
if (rpcRetentionLedgers < 1) throw new Error("LEDGER_RPC_RETENTION_LEDGERS: must be at least 1");

interface NetworkSpec {
  name: "testnet" | "public";
  envUrl: string;
  rpcEnvUrl: string;
  passphrase: string;
  port: number;
  friendbot: boolean;
}

const specs: NetworkSpec[] = [
  {
    name: "testnet" as const,
    envUrl: "HORIZON_TESTNET_URL",
    rpcEnvUrl: "RPC_TESTNET_URL",
    passphrase: Networks.TESTNET,
    port: num(values["testnet-port"], "LEDGER_TESTNET_PORT", 8001),
    friendbot: true,
  },
  {
    name: "public" as const,
    envUrl: "HORIZON_MAINNET_URL",
    rpcEnvUrl: "RPC_MAINNET_URL",
    passphrase: Networks.PUBLIC,
    port: num(values["public-port"], "LEDGER_PUBLIC_PORT", 8002),
    friendbot: publicFriendbot,
  },
].filter((s) => !only || s.name === only);

if (specs.length === 0) throw new Error(`--only must be "testnet" or "public", got ${only}`);
if (snapshotDir) mkdirSync(snapshotDir, { recursive: true });

function issuerSecret(network: string, code: string): string | undefined {
  return (
    env[`LEDGER_${network.toUpperCase()}_${code}_ISSUER_SECRET`] ??
    env[`LEDGER_${code}_ISSUER_SECRET`] ??
    undefined
  );
}

const running: Array<{ spec: NetworkSpec; ledger: LocalLedger }> = [];
for (const spec of specs) {
  const ledger = await startLedger({
    networkPassphrase: spec.passphrase,
    port: spec.port,
    host,
    closeIntervalMs,
    snapshotFile: snapshotDir ? join(snapshotDir, `${spec.name}.json`) : undefined,
    issuers: {
      USDC: issuerSecret(spec.name, "USDC"),
      EURC: issuerSecret(spec.name, "EURC"),
    },
    xlmRate,
    friendbot: spec.friendbot,
    rpcRetentionLedgers,
  });
  running.push({ spec, ledger });
}

for (const { spec, ledger } of running) {
  console.log(`[ledger] ${spec.name.padEnd(7)} ${ledger.url}  "${ledger.networkPassphrase}"`);
  for (const info of Object.values(ledger.issuers)) {
    console.log(`[ledger]          ${info.code} issuer ${info.issuer}`);
  }
}
console.log("[ledger] point the app at them with:");
for (const { spec, ledger } of running) console.log(`  ${spec.envUrl}=${ledger.url}`);
for (const { spec, ledger } of running) console.log(`  ${spec.rpcEnvUrl}=${ledger.rpcUrl}`);
console.log(
  `[ledger] ledgers close every ${closeIntervalMs ? `${closeIntervalMs} ms` : "POST /local/close"}` +
    (snapshotDir ? `; snapshots in ${snapshotDir}` : "; state is in memory only"),
);

if (infoFile) {
  const info: Record<string, unknown> = {};
  for (const { spec, ledger } of running) {
    info[spec.name] = {
      url: ledger.url,
      rpcUrl: ledger.rpcUrl,
      networkPassphrase: ledger.networkPassphrase,
      issuers: Object.fromEntries(
        Object.values(ledger.issuers).map((i) => [i.code, { code: i.code, issuer: i.issuer }]),
      ),
    };
  }
  mkdirSync(dirname(infoFile), { recursive: true });
  writeFileSync(infoFile, `${JSON.stringify(info, null, 2)}\n`);
  console.log(`[ledger] wrote ${infoFile}`);
}

let stopping = false;
async function shutdown(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await Promise.all(running.map(({ ledger }) => ledger.stop()));
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
