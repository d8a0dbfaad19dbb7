import { numeric, text, timestamp } from "drizzle-orm/pg-core";

// Column builders every table shares. The SQL they produce is unchanged (drizzle-kit generate
// reports no difference); they only keep the types of ids, amounts and times in one place.

/** `timestamptz`, read as a Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Text primary key (cuid2 ids, lib/ids.ts). */
export const idColumn = () => text("id").primaryKey();

/** An amount in asset units: numeric(18,7), exact (one stroop = 0.0000001). */
export const amount = (name: string) => numeric(name, { precision: 18, scale: 7 });
