import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { customType, numeric, text, timestamp } from "drizzle-orm/pg-core";

// Column builders every table shares. The SQL they produce is unchanged (drizzle-kit generate
// reports no difference); they only keep the types of ids, amounts and times in one place.

/** `timestamptz`, read as a Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Text primary key (cuid2 ids, lib/ids.ts). */
export const idColumn = () => text("id").primaryKey();

/** An amount in asset units: numeric(18,7), exact (one stroop = 0.0000001). */
export const amount = (name: string) => numeric(name, { precision: 18, scale: 7 });

/**
 * A `bigint` (int8) read and written as its decimal string: ids up to 2^63-1 that must stay
 * exact and JSON-safe (a JavaScript bigint is neither a number nor serializable).
 */
export const bigintText = customType<{ data: string; driverData: string | number | bigint }>({
  dataType: () => "bigint",
  fromDriver: (value) => String(value),
  toDriver: (value) => value,
});

/**
 * A document's search keys (`search_keys`, migration 0042; docs/decisions.md, Search, "Keys"):
 * the expression of each table's GIN index and of the searches that read it, which must be
 * the same for the planner to take the index.
 */
export const searchKeys = (owner: AnyColumn, text: AnyColumn): SQL =>
  sql`search_keys(${owner}, ${text})`;
