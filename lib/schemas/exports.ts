import { z } from "@/lib/zod";
import { networkNameSchema } from "./common";

export const INVALID_EXPORT_DATE = "a date (2026-05-01) or an ISO 8601 time with an offset";
export const EMPTY_EXPORT_RANGE = "must be after from";

/** A day (its midnight UTC) or an ISO 8601 instant with an offset. */
const instant = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: INVALID_EXPORT_DATE })
  .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v));

/**
 * The query of both CSV exports (docs/decisions.md, Exports): `from` inclusive, `to`
 * exclusive, on the payment's confirmation time or the invoice's creation time.
 */
export const exportQuerySchema = z
  .object({
    from: instant.optional().describe("inclusive: `2026-01-01` or `2026-01-01T00:00:00Z`"),
    to: instant.optional().describe("exclusive: `2026-02-01` takes January whole"),
    network: networkNameSchema.optional().describe("testnet or mainnet; both when absent"),
  })
  .strict()
  .refine((q) => !q.from || !q.to || q.to > q.from, { path: ["to"], error: EMPTY_EXPORT_RANGE });

export type ExportQuery = z.output<typeof exportQuerySchema>;
