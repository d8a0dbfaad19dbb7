import type { DbOrTx, Transaction } from "@/db/client";
import type { ServiceContext } from "./context";

/** Runs `fn` in a transaction, reusing the caller's when one is open (midday-style). */
export async function withTransaction<T>(
  db: DbOrTx,
  fn: (tx: Transaction) => Promise<T>,
): Promise<T> {
  if (isTransaction(db)) return fn(db);
  return (db as { transaction: (f: (tx: Transaction) => Promise<T>) => Promise<T> }).transaction(
    fn,
  );
}

function isTransaction(db: DbOrTx): db is Transaction {
  return "rollback" in db;
}

/** The Postgres error code of a failed query (drizzle wraps driver errors in `cause`). */
export function pgErrorCode(err: unknown): { code?: string; constraint?: string } {
  let current: unknown = err;
  for (let i = 0; current && i < 4; i++) {
    const e = current as { code?: unknown; constraint_name?: unknown; constraint?: unknown };
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) {
      const constraint =
        typeof e.constraint_name === "string"
          ? e.constraint_name
          : typeof e.constraint === "string"
            ? e.constraint
            : undefined;
      return { code: e.code, constraint };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return {};
}

/** Rows of `db.execute`: postgres.js answers an array, PGlite `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

export type { ServiceContext };
