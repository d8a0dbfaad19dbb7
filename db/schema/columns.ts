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
