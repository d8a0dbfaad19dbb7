import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATION_LOCK_KEY } from "../db/migrate";
import { appEnvironment, freePort, SERVER_ARGS } from "./helpers/app";
import { createTestDatabase } from "./helpers/postgres";

// docs/decisions.md, Cold start: in production Next.js runs the start-up hook (lib/boot.ts,
// the migrations) in the background, so the server listens while it migrates; every request
// waits for the hook before it is handled. A request must never see an older schema.
const ROOT = path.resolve(import.meta.dirname, "..");
const journal = JSON.parse(
  fs.readFileSync(path.join(ROOT, "db", "migrations", "meta", "_journal.json"), "utf8"),
) as { entries: unknown[] };

let db: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

describe("start-up migrations (WORKER=off)", () => {
  it("a request that arrives while the server migrates is answered only once every migration is applied", async () => {
    // Another instance holds the migration lock: this one's migrator waits for it.
    const holder = postgres(db.url, { max: 1, onnotice: () => {} });
    const reader = postgres(db.url, { max: 1, onnotice: () => {} });
    await holder`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    const port = await freePort();
    let output = "";
    const child: ChildProcess = spawn(process.execPath, SERVER_ARGS, {
      cwd: ROOT,
      env: appEnvironment(port, { DATABASE_URL: db.url, WORKER: "off" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (d) => {
      output += d;
    });
    child.stderr?.on("data", (d) => {
      output += d;
    });
    try {
      // Listening (or not yet: either way no request may be served before the migrations).
      const deadline = Date.now() + 30_000;
      while (!/Ready/.test(output) && Date.now() < deadline) {
        expect(child.exitCode, output).toBeNull();
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(output).toMatch(/Ready/);
      let answered = false;
      const response = (async () => {
        const res = await fetch(`http://127.0.0.1:${port}/api/payments/${"a".repeat(24)}/status`);
        answered = true;
        return { status: res.status, body: await res.json() };
      })();
      await new Promise((r) => setTimeout(r, 1500));
      expect(answered).toBe(false);
      const [{ exists }] =
        await reader`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`;
      expect(exists).toBe(false);

      await holder`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
      const { status, body } = await response;
      // The invoice does not exist: a 404 from the migrated tables, not a 5xx from missing ones.
      expect(status, JSON.stringify(body)).toBe(404);
      const [{ n }] = await reader`select count(*)::int as n from drizzle.__drizzle_migrations`;
      expect(n).toBe(journal.entries.length);
    } finally {
      await holder.end();
      await reader.end();
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      });
    }
  }, 60_000);
});
