import { DUE_DATE_PATTERN, INVALID_DUE_DATE, parseDueDate } from "@/lib/domain/due-date";
import {
  AMOUNT_SPEC,
  checkDecimal,
  type DecimalSpec,
  DISCOUNT_SPEC,
  QUANTITY_SPEC,
  RATE_SPEC,
  TAX_RATE_SPEC,
} from "@/lib/domain/money";
import { NETWORK_PASSPHRASES } from "@/lib/stellar/networks";
import { z } from "@/lib/zod";

export const SORT_FIELDS = [
  "createdAt",
  "updatedAt",
  "dueDate",
  "total",
  "invoiceNumber",
  "status",
] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export const INVALID_NETWORK = "Invalid network passphrase";

export const INVALID_SORT = `Invalid sort. Use field:direction with field one of ${SORT_FIELDS.join(", ")} and direction asc or desc`;

/**
 * Messages that, when a field fails with them, become the response's top-level message
 * (the documented words); any other failure is `Invalid request` with per-field details.
 */
export const TOP_LEVEL_MESSAGES = new Set([
  "Invalid Stellar address",
  INVALID_NETWORK,
  "Invalid email",
  "Name is required",
  "transactionHash required",
  INVALID_SORT,
]);

export const NETWORK_VALUES = [NETWORK_PASSPHRASES.testnet, NETWORK_PASSPHRASES.mainnet] as const;
export type NetworkPassphrase = (typeof NETWORK_VALUES)[number];
export type NetworkName = keyof typeof NETWORK_PASSPHRASES;

export const networkPassphraseSchema = z
  .string()
  .refine((v): v is NetworkPassphrase => (NETWORK_VALUES as readonly string[]).includes(v), {
    message: INVALID_NETWORK,
  })
  .describe(
    "`Test SDF Network ; September 2015` or `Public Global Stellar Network ; September 2015`",
  );

export const networkNameSchema = z.enum(["testnet", "mainnet"]);

/** An exact decimal as a string (Form B) or a JSON number (Form A); never stored as a float. */
export function decimalSchema(spec: DecimalSpec) {
  return z.union([z.string(), z.number()]).superRefine((value, ctx) => {
    const r = checkDecimal(value, spec);
    if (!r.ok) ctx.addIssue({ code: "custom", message: r.message });
  });
}

export const amountSchema = decimalSchema(AMOUNT_SPEC).describe(
  "decimal string (Form B) or number (Form A), > 0, at most 7 decimals",
);
export const rateSchema = decimalSchema(RATE_SPEC).describe("decimal, >= 0, at most 7 decimals");
export const quantitySchema = decimalSchema(QUANTITY_SPEC).describe(
  "decimal, > 0, at most 2 decimals",
);
export const taxRateSchema = decimalSchema(TAX_RATE_SPEC).describe("percent, 0 to 100, 2 decimals");
export const discountSchema = decimalSchema(DISCOUNT_SPEC).describe("an amount, >= 0");

export const emailSchema = z
  .string()
  .trim()
  .max(200, "Invalid email")
  .pipe(z.email({ message: "Invalid email" }));

/** Optional text: trimmed, bounded, empty becomes null. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .transform((v) => (v === "" ? null : v))
    .nullish();

/** A due date: `YYYY-MM-DD` or an ISO 8601 timestamp, kept as 00:00 UTC of its UTC date. */
export const dueDateSchema = z
  .string()
  .regex(DUE_DATE_PATTERN, INVALID_DUE_DATE)
  .transform((v, ctx) => {
    const d = parseDueDate(v);
    if (d === null) {
      ctx.addIssue({ code: "custom", message: INVALID_DUE_DATE });
      return z.NEVER;
    }
    return d;
  });

export const idParamSchema = z.string().regex(/^[a-z0-9]{20,40}$/);

/** Query booleans: true/false/1/0. */
export const queryBoolean = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1");

/** How long a quote of a fiat-priced invoice or link holds. */
export const quoteTtlSchema = z
  .number({ error: "quoteTtlMinutes must be a whole number of minutes" })
  .int("quoteTtlMinutes must be a whole number of minutes")
  .min(1, "quoteTtlMinutes must be between 1 and 120")
  .max(120, "quoteTtlMinutes must be between 1 and 120")
  .optional()
  .describe("minutes a quote holds, 1 to 120 (default 15); fiat-priced invoices only");

/** `q` of a list's search must be this long once trimmed (docs/decisions.md, Search). */
export const SEARCH_Q_MAX = 200;
/**
 * The most matches a search ranks and counts (docs/decisions.md, Search, "Broad searches"):
 * ranking and counting read every match, so up to this many a search is ranked and its total
 * exact; beyond it, listed in the list's order with a total of "more than this many".
 */
export const SEARCH_RANK_LIMIT = 1000;
export const INVALID_SEARCH_Q = `q must be 1 to ${SEARCH_Q_MAX} characters (spaces around it do not count)`;

/**
 * `q` of GET /api/invoices, /api/quotes and /api/credit-notes: the search (lib/services/search.ts).
 */
export const searchQuerySchema = (what: string) =>
  z
    .string()
    .trim()
    .min(1, INVALID_SEARCH_Q)
    .max(SEARCH_Q_MAX, INVALID_SEARCH_Q)
    .meta({
      description: `Search the ${what}: every word of it must start a word of the number, the client's name, company or email, the title or a line's description (any case, accents or not: "muller" finds "Müller", "acm" finds "Acme"). Without \`sort\` the best matches come first (the whole query as the number, then words starting the number, the client, the email, the title, the lines), ties in the list's default order; with \`sort\`, that order. A search with more than ${SEARCH_RANK_LIMIT} matches is not ranked: its matches come newest first (or in \`sort\`'s order), \`total\` is ${SEARCH_RANK_LIMIT} and \`totalExact\` false. 1 to ${SEARCH_Q_MAX} characters once trimmed.`,
      example: "acme",
    });
