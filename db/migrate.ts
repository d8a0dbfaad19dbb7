import fs from "node:fs";
import path from "node:path";
import { withTimeout } from "../lib/timeout";

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

/**
 * How long one statement may wait for PostgreSQL (for a connection, then for the answer)
 * before its caller gets a QUERY_TIMEOUT error, which lib/http/errors.ts answers as a 503
 * (docs/decisions.md, "Database outages"). A server that stops answering without closing
 * its connections would otherwise hold every request forever.
 */
export const QUERY_TIMEOUT_MS = 5_000;

/** Arbitrary constant: serializes migrations when several instances start at once. */
export const MIGRATION_LOCK_KEY = 72_210_001;

/**
 * The start-up migration check's fast path (docs/decisions.md, Cold start). drizzle's migrator
 * (`migrate()` of drizzle-orm's PostgreSQL dialect) applies each migration of the journal whose
 * `when` is later than the `created_at` of the newest row of `drizzle.__drizzle_migrations`,
 * and only those; it first reads and hashes every migration file, and runs five statements and
 * a transaction even when there is nothing to apply. When that newest row is at least the
 * journal's latest `when`, it would apply nothing: one query tells, and the migrator (under
 * its advisory lock) runs only otherwise, as before.
 */
export function latestMigrationMillis(folder: string): number {
  const journal = JSON.parse(
    fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8"),
  ) as { entries: { when: number }[] };
  return Math.max(0, ...journal.entries.map((e) => e.when));
}

export const LATEST_APPLIED_SQL =
  'select created_at from "drizzle"."__drizzle_migrations" order by created_at desc limit 1';

/**
 * True when the database holds every migration of `folder` (nothing for the migrator to do).
 * `query` runs LATEST_APPLIED_SQL; a database never migrated (no such schema or table) is not
 * up to date; any other error is thrown, as the migrator would.
 */
export async function migrationsUpToDate(
  folder: string,
  query: (text: string) => Promise<{ created_at: unknown }[]>,
): Promise<boolean> {
  let rows: { created_at: unknown }[];
  try {
    rows = await query(LATEST_APPLIED_SQL);
  } catch (err) {
    // 3F000: no such schema; 42P01: no such table.
    const code = (err as { code?: string }).code;
    if (code === "3F000" || code === "42P01") return false;
    throw err;
  }
  if (rows.length === 0) return false;
  return Number(rows[0].created_at) >= latestMigrationMillis(folder);
}

/**
 * drizzle's migrator on PostgreSQL, on a dedicated single connection holding a session
 * advisory lock around it (instances starting at once migrate one after the other).
 */
export async function runLockedMigrator(url: string): Promise<void> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const lockSql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await lockSql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migrate(drizzle(lockSql), { migrationsFolder: MIGRATIONS_FOLDER });
    await lockSql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  } finally {
    await lockSql.end({ timeout: 5 });
  }
}

/**
 * Runs the locked migrator on `url` unless `query` (one statement on a connection the caller
 * owns) shows the database holds every migration already; true when it ran.
 */
export async function migrateIfBehind(
  url: string,
  query: (text: string) => Promise<{ created_at: unknown }[]>,
): Promise<boolean> {
  if (await migrationsUpToDate(MIGRATIONS_FOLDER, query)) return false;
  await runLockedMigrator(url);
  return true;
}

/**
 * The start-up migration of a PostgreSQL database (lib/boot.ts) without opening the app's
 * database handle (its schema, drizzle's query builder): one connection asks whether anything
 * is to be migrated, and the locked migrator runs only if so. Throws when the database does
 * not answer within `timeoutMs`.
 */
export async function migratePostgres(
  url: string,
  timeoutMs: number = QUERY_TIMEOUT_MS,
): Promise<void> {
  const { default: postgres } = await import("postgres");
  const sql = postgres(url, {
    max: 1,
    onnotice: () => {},
    connect_timeout: Math.ceil(timeoutMs / 1000),
  });
  try {
    await migrateIfBehind(url, async (text) =>
      withTimeout(sql.unsafe(text), timeoutMs, () => new Error("database did not answer in time")),
    );
  } finally {
    await sql.end({ timeout: 1 });
  }
}
