import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "./client";
import { latestMigrationMillis, MIGRATIONS_FOLDER, migrationsUpToDate } from "./migrate";

// The start-up check's fast path (db/migrate.ts, docs/decisions.md "Cold start") skips the
// migrator only when the migrator would apply nothing: a database one migration behind the
// code is migrated at start, one up to date is left alone.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "migrate-test-"));
let behind: string;

beforeAll(() => {
  // The migrations folder without its newest migration: the code as it was one release ago.
  behind = path.join(tmp, "behind");
  fs.cpSync(MIGRATIONS_FOLDER, behind, { recursive: true });
  const file = path.join(behind, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(file, "utf8"));
  journal.entries.pop();
  fs.writeFileSync(file, JSON.stringify(journal));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const openClient = async (dir: string) => {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const client = new PGlite(dir, { extensions: { pg_trgm, unaccent, btree_gin } });
  await client.waitReady;
  return client;
};
const latestIn = (client: PGlite) => async (text: string) =>
  (await client.query<{ created_at: unknown }>(text)).rows;

describe("the start-up migration check", () => {
  it("a database never migrated is not up to date", async () => {
    const client = await openClient(path.join(tmp, "empty"));
    expect(await migrationsUpToDate(MIGRATIONS_FOLDER, latestIn(client))).toBe(false);
    await client.close();
  }, 120_000);

  it("a database one migration behind the code is not up to date, and opening it applies that migration", async () => {
    const dataDir = path.join(tmp, "old");
    const client = await openClient(path.join(dataDir, "pg"));
    await migrate(drizzle(client), { migrationsFolder: behind });
    expect(await migrationsUpToDate(behind, latestIn(client))).toBe(true);
    expect(await migrationsUpToDate(MIGRATIONS_FOLDER, latestIn(client))).toBe(false);
    const before = await client.query(
      "select count(*)::int as n from drizzle.__drizzle_migrations",
    );
    await client.close();

    // As a start does: the check finds the newest migration missing and the migrator applies it.
    const handle = await openDatabase({ dataDir });
    const [after] = await handle.raw<{ n: number }>(
      "select count(*)::int as n from drizzle.__drizzle_migrations",
      [],
    );
    expect(after.n).toBe((before.rows[0] as { n: number }).n + 1);
    expect(await migrationsUpToDate(MIGRATIONS_FOLDER, (text) => handle.raw(text, []))).toBe(true);
    await handle.close();
  }, 120_000);

  it("the journal's newest migration is what the database records last once migrated", async () => {
    const handle = await openDatabase({ dataDir: path.join(tmp, "fresh") });
    const [row] = await handle.raw<{ created_at: string }>(
      'select created_at from "drizzle"."__drizzle_migrations" order by created_at desc limit 1',
      [],
    );
    expect(Number(row.created_at)).toBe(latestMigrationMillis(MIGRATIONS_FOLDER));
    await handle.close();
  }, 120_000);
});
