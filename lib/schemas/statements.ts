import { STATEMENT_LINE_KINDS } from "@/lib/domain/statement";
import { z } from "@/lib/zod";
import { networkNameSchema } from "./common";
import { decimal, id, timestamp, wire } from "./wire";

export const STATEMENT_DATE = "a date (2026-05-01)";
export const STATEMENT_REVERSED = "must not be before from";
export const STATEMENT_FORMATS = ["json", "csv", "pdf"] as const;

/**
 * GET /api/clients/:id/statement (docs/decisions.md, Statements): the period [from, to], both
 * days inclusive, in UTC; `format` json (default), csv or pdf.
 */
export const statementQuerySchema = z
  .object({
    from: z.iso.date({ error: STATEMENT_DATE }).describe("first day, inclusive: `2026-01-01`"),
    to: z.iso.date({ error: STATEMENT_DATE }).describe("last day, inclusive: `2026-01-31`"),
    format: z.enum(STATEMENT_FORMATS).default("json").describe("json (default), csv or pdf"),
    network: networkNameSchema.optional().describe("testnet or mainnet; both when absent"),
  })
  .strict()
  .refine((q) => q.to >= q.from, { path: ["to"], error: STATEMENT_REVERSED });
export type StatementQuery = z.output<typeof statementQuerySchema>;

const line = z.object({
  date: timestamp,
  kind: z.enum(STATEMENT_LINE_KINDS),
  reference: z.string().describe("Invoice or credit note number, payment or refund id"),
  invoiceId: id,
  invoiceNumber: z.string(),
  amount: decimal.describe(
    "Positive; invoices and refunds raise the balance, payments and credit notes lower it",
  ),
  balance: decimal.describe("What the client owes after this line (negative: in credit)"),
});

const block = z.object({
  currency: z
    .string()
    .describe(
      "The invoices' unit: the price currency (USD, EUR) of a fiat-priced invoice, else its asset",
    ),
  openingBalance: decimal,
  invoiced: decimal,
  paid: decimal,
  refunded: decimal,
  credited: decimal,
  closingBalance: decimal.describe("openingBalance + invoiced - paid + refunded - credited"),
  lines: z.array(line),
});

export const statementResponse = wire(
  "Statement",
  z.object({
    client: z.object({ id, name: z.string(), email: z.string(), company: z.string().nullable() }),
    from: z.iso.date(),
    to: z.iso.date(),
    currencies: z.array(block).describe("One per currency with an opening balance or a line"),
  }),
);
