import fs from "node:fs";
import path from "node:path";

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
