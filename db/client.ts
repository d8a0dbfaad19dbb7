import fs from "node:fs";
import path from "node:path";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import * as schema from "./schema";

export type Schema = typeof schema;
/** One type for both drivers: postgres.js (DATABASE_URL) and PGlite (embedded). */
export type Database = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Transaction = PgTransaction<
  PgQueryResultHKT,
  Schema,
  ExtractTablesWithRelations<Schema>
>;
/** Database functions take either, so a caller can compose them in one transaction. */
export type DbOrTx = Database | Transaction;

export type DatabaseHandle = {
  db: Database;
  kind: "postgres" | "pglite";
  /**
   * One parameterised statement straight through the driver, for the few queries that run on
   * every request (the rate-limit counter): no query builder, no result mapping.
   */
  raw: <T>(text: string, params: unknown[]) => Promise<T[]>;
  /** Cheap liveness probe for /api/health. */
  ping: () => Promise<void>;
  close: () => Promise<void>;
};

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

/** Arbitrary constant: serializes migrations when several instances start at once. */
const MIGRATION_LOCK_KEY = 72_210_001;

export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  migrate?: boolean;
  poolSize?: number;
}): Promise<DatabaseHandle> {
  if (opts.databaseUrl)
    return openPostgres(opts.databaseUrl, opts.migrate ?? true, opts.poolSize ?? 10);
  return openPglite(path.join(opts.dataDir, "pg"), opts.migrate ?? true);
}

async function openPostgres(
  url: string,
  migrate: boolean,
  poolSize: number,
): Promise<DatabaseHandle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  if (migrate) {
    // A dedicated single connection holds a session advisory lock around the migrator.
    const lockSql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await lockSql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
      const { migrate: run } = await import("drizzle-orm/postgres-js/migrator");
      await run(drizzle(lockSql), { migrationsFolder: MIGRATIONS_FOLDER });
      await lockSql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
    } finally {
      await lockSql.end({ timeout: 5 });
    }
  }
  const sql = postgres(url, {
    max: poolSize,
    onnotice: () => {},
    connect_timeout: 5,
    idle_timeout: 30,
  });
  const db = drizzle(sql, { schema }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    raw: async <T>(text: string, params: unknown[]) =>
      (await sql.unsafe(text, params as never[], { prepare: true })) as unknown as T[],
    ping: async () => {
      await sql`select 1`;
    },
    close: () => sql.end({ timeout: 5 }),
  };
}

async function openPglite(dir: string, migrate: boolean): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  // PGlite does not create parent folders.
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const client = new PGlite(dir);
  await client.waitReady;
  const db = drizzle(client, { schema });
  if (migrate) {
    const { migrate: run } = await import("drizzle-orm/pglite/migrator");
    await run(db, { migrationsFolder: MIGRATIONS_FOLDER });
  }
  return {
    db: db as unknown as Database,
    kind: "pglite",
    raw: async <T>(text: string, params: unknown[]) => (await client.query<T>(text, params)).rows,
    ping: async () => {
      await client.query("select 1");
    },
    close: () => client.close(),
  };
}
