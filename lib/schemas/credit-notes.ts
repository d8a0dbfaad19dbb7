import { CREDIT_NOTE_KINDS } from "@/lib/domain/credit-note";
import { TAX_CATEGORIES } from "@/lib/domain/tax-categories";
import { z } from "@/lib/zod";
import { amountSchema, quantitySchema, searchQuerySchema } from "./common";
import { OFFSET_WITH_CURSOR, taxBreakdownB } from "./invoices";
import { decimal, id, searchPageFields, timestamp, wire } from "./wire";

// Credit notes (docs/decisions.md, Credit notes): the request body, the list query and the
// responses (lib/serializers/credit-notes.ts). The same in both wire forms.

export const LINE_NEEDS_ONE = "give lineIndex or lineItemId";

/** POST /api/invoices/:id/credit-notes. */
export const createCreditNoteSchema = z
  .object({
    reason: z
      .string({ error: "reason is required" })
      .trim()
      .min(1, "reason is required")
      .max(500, "reason must be at most 500 characters")
      .describe("Why the invoice is corrected; printed on the credit note"),
    lines: z
      .array(
        z
          .object({
            lineIndex: z.number().int().min(0).optional().describe("0-based position of the line"),
            lineItemId: z.string().min(1).max(64).optional().describe("The line's `id`"),
            quantity: quantitySchema
              .optional()
              .describe("How much of the line to credit; default: all that is left of it"),
          })
          .strict()
          .refine((l) => (l.lineIndex === undefined) !== (l.lineItemId === undefined), {
            message: LINE_NEEDS_ONE,
          }),
      )
      .min(1)
      .max(200)
      .optional()
      .describe("Chosen lines and quantities; without `lines` and `amount`: all that is left"),
    amount: amountSchema
      .optional()
      .describe(
        "A credit on the whole invoice: the credit note's total, tax included, shared among the tax rates in proportion",
      ),
    refundId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe("A refund of this invoice the credit note goes with (at most one per refund)"),
  })
  .strict();
export type CreateCreditNoteBody = z.infer<typeof createCreditNoteSchema>;

export const listCreditNotesQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
    invoiceId: z.string().min(1).max(64).optional().meta({ description: "Only this invoice's" }),
    q: searchQuerySchema(
      "credit notes (the number, the invoice's client and title, the reason, the lines' descriptions and the invoice's number)",
    ).optional(),
    starting_after: z.string().min(1).max(64).optional().meta({
      description:
        "Keyset paging as GET /api/invoices: the page starts right after this credit note (one of the caller's), newest first (with `q`: in the ranking, unless the search is broad, `totalExact` false). Not with `offset`.",
    }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.starting_after !== undefined && v.offset !== undefined) {
      ctx.addIssue({ code: "custom", path: ["offset"], message: OFFSET_WITH_CURSOR });
    }
  });

const creditLine = z.object({
  lineItemId: id.nullable().meta({
    description: "The invoice line credited; null for a line on the whole invoice",
  }),
  description: z.string(),
  quantity: decimal,
  rate: decimal,
  amount: decimal,
  taxRate: decimal.nullable().meta({ description: "The line's own rate; null: the invoice's" }),
  taxCategory: z.enum(TAX_CATEGORIES).nullable(),
});

const taxInCurrency = z
  .object({
    currency: z.string().meta({ example: "EUR" }),
    rate: decimal.meta({
      description: "1 unit of `unit` in `currency`, fixed when the invoice was sent",
    }),
    taxAmount: decimal,
    breakdown: z.array(
      z.object({
        category: z.enum(TAX_CATEGORIES),
        rate: decimal,
        taxableAmount: decimal,
        taxAmount: decimal,
      }),
    ),
  })
  .nullable()
  .meta({ description: "The tax in the invoice's tax currency; null when it has none" });

const creditNoteB = z.object({
  id,
  number: z.string().meta({ description: "The wallet's own gap-free series", example: "CN-0001" }),
  invoiceId: id,
  invoiceNumber: z.string().meta({ example: "INV-0001" }),
  kind: z.enum(CREDIT_NOTE_KINDS).meta({
    description:
      "FULL (all that was left), LINES (chosen lines), AMOUNT (a sum on the whole invoice)",
  }),
  reason: z.string(),
  lines: z.array(creditLine),
  subtotal: decimal,
  discount: decimal.meta({ description: "The credited share of the invoice's discount" }),
  taxBreakdown: taxBreakdownB,
  taxAmount: decimal,
  total: decimal.meta({ description: "What is credited, tax included, in `unit`" }),
  unit: z.string().meta({
    description: "The invoice's price currency when set, else its asset",
    example: "USDC",
  }),
  taxInCurrency,
  refundId: id.nullable().meta({ description: "The refund it goes with, if any" }),
  pdfUrl: z.string().meta({ example: "/api/credit-notes/clx8f2k9p0000abcd1234efgh/pdf" }),
  createdAt: timestamp,
});

export const creditNoteView = wire("CreditNote", creditNoteB);

export const creditNotePage = wire(
  "CreditNotePage",
  z.object({ creditNotes: z.array(creditNoteB), ...searchPageFields }),
);
