/**
 * `npx tsx scripts/rebuild-stats.ts [wallet]`: recomputes the kept statistics (invoice_stats,
 * payment_stats) of one wallet, or of every wallet, from the invoices and payments
 * (docs/decisions.md, Statistics at scale). The database keeps them as rows change; this is
 * the repair, safe while the app runs (each wallet in one statement). Needs DATABASE_URL.
 */
import { openDatabase } from "../db/client";
import { exitOnConfigError, parseConfig } from "../lib/config";
import { logger } from "../lib/logger";
import { rebuildStats } from "../lib/services/invoices/invoice-stats";

const config = exitOnConfigError(() => parseConfig(process.env));
if (!config.databaseUrl) {
  process.stderr.write("scripts/rebuild-stats.ts needs DATABASE_URL\n");
  process.exit(1);
}
// The server migrates at start-up; a repair never changes the schema.
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  migrate: false,
});
const wallet = process.argv[2];
const n = await rebuildStats(
  { db: database.db, config, logger, now: () => new Date(), requestId: "rebuild-stats" },
  wallet,
);
process.stdout.write(`statistics rebuilt for ${n} wallet(s)\n`);
await database.close();
