import { openDatabase } from "@/db/client";
import { createRecurringInvoices } from "@/lib/jobs/create-recurring-invoices";
import { testContext } from "./context";

// A worker process for tests/recurring.test.ts: runs the recurring job once at the pinned
// clock RECURRING_CLOCK, slowly (each period's transaction waits SLOW_MS before it commits),
// so the test can SIGKILL it in the middle of a run.

const url = process.env.DATABASE_URL ?? "";
const clock = new Date(process.env.RECURRING_CLOCK ?? "");
const slowMs = Number(process.env.SLOW_MS ?? "0");

const handle = await openDatabase({ databaseUrl: url, dataDir: "/nonexistent" });
const result = await createRecurringInvoices(
  testContext(handle, url, () => clock),
  {
    afterInsert: async (_tx, r) => {
      process.stdout.write(`period ${r.period}\n`);
      await new Promise((resolve) => setTimeout(resolve, slowMs));
    },
  },
);
process.stdout.write(`done ${JSON.stringify(result)}\n`);
await handle.close();
