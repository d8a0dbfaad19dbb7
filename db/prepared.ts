import type { Database, DbOrTx } from "./client";

/**
 * Per-database cache of prepared queries for the hot paths (status polling, public views,
 * rate limiting): drizzle builds the SQL once instead of on every request, which was the
 * largest share of the app's CPU per request in profiles (see bench/results.md).
 * Transactions build their queries as usual.
 */
const cache = new WeakMap<object, Map<string, unknown>>();

export function isRootDatabase(db: DbOrTx): db is Database {
  return !("rollback" in db);
}

export function prepared<T>(db: Database, name: string, build: (db: Database) => T): T {
  let byName = cache.get(db);
  if (!byName) {
    byName = new Map();
    cache.set(db, byName);
  }
  let query = byName.get(name) as T | undefined;
  if (!query) {
    query = build(db);
    byName.set(name, query);
  }
  return query;
}
