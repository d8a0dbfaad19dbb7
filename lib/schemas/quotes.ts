import { CURRENCIES, PRICE_CURRENCIES } from "@/lib/domain/money";
import { QUOTE_AUDIT_ACTIONS, QUOTE_ON_ACCEPT, QUOTE_STATUSES } from "@/lib/domain/quote-state";
import { z } from "@/lib/zod";
import { networkNameSchema, networkPassphraseSchema, searchQuerySchema } from "./common";
import {
  createBodyRule,
  dataOutputs,
  invoiceTemplateObject,
  lineItemB,
  OFFSET_WITH_CURSOR,
  periodRule,
  taxBreakdownB,
  textOutputs,
} from "./invoices";
import {
  currency,
  decimal,
  id,
  networkPassphrase,
  searchPageFields,
  timestamp,
  wire,
} from "./wire";

// Quotes (docs/decisions.md, Quotes): the invoice a client is offered before it exists. A quote's
// body IS the invoice's template (`invoiceTemplateObject`, lib/schemas/invoices.ts, the same object
// a recurring template is), so its lines, tax, currency and fiat pricing and language are the
// invoice's own definitions; the quote adds its validity and what acceptance does. The responses
// are the same in both wire forms (as credit notes'). Their OpenAPI components are `SalesQuote*`:
// `Quote` is a fiat-priced invoice's locked rate (lib/schemas/payments.ts).

export const VALID_UNTIL_FORMAT = "validUntil must be a date, YYYY-MM-DD";

const validUntil = z
  .string({ error: VALID_UNTIL_FORMAT })
  .regex(/^\d{4}-\d{2}-\d{2}$/, VALID_UNTIL_FORMAT)
  .refine(
    (v) =>
      !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
      new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v,
    "validUntil must be a date that exists",
  )
  .describe(
    "The last day (UTC) the client may accept the quote, YYYY-MM-DD, today or later; left out: 30 days from creation",
  );

const onAccept = z
  .enum(QUOTE_ON_ACCEPT, { error: 'onAccept must be "draft" or "send"' })
  .describe(
    "What acceptance makes: `draft` (default) an invoice the freelancer sends later, `send` an invoice sent at once (emailed to the client as any sent invoice)",
  );

const quoteFields = { validUntil: validUntil.optional(), onAccept: onAccept.optional() };

/** The invoice a quote becomes, as stored on the quote (client resolved, lines under lineItems). */
export const quoteInvoiceBodySchema = invoiceTemplateObject.superRefine(createBodyRule);
export type QuoteInvoiceBody = z.infer<typeof quoteInvoiceBodySchema>;

/** POST /api/quotes: the invoice's template, plus validUntil and onAccept. */
export const createQuoteSchema = invoiceTemplateObject
  .extend(quoteFields)
  .strict()
  .superRefine(createBodyRule);
export type CreateQuoteInput = z.infer<typeof createQuoteSchema>;

/** PATCH /api/quotes/:id: any subset of the create body's fields. */
export const updateQuoteSchema = invoiceTemplateObject
  .partial()
  .extend(quoteFields)
  .strict()
  .superRefine((v, ctx) => {
    if (v.lineItems && v.items) {
      ctx.addIssue({ code: "custom", path: ["items"], message: "Send either lineItems or items" });
    }
    periodRule(v, ctx);
  });
export type UpdateQuoteInput = z.infer<typeof updateQuoteSchema>;

export const acceptQuoteSchema = z
  .object({
    name: z
      .string({ error: "name is required: type your name to accept" })
      .trim()
      .min(1, "name is required: type your name to accept")
      .max(200, "name must be at most 200 characters")
      .describe("The client's name, typed as their signature; recorded with the time and IP"),
  })
  .strict();

export const declineQuoteSchema = z
  .object({
    reason: z
      .string()
      .trim()
      .max(1000, "reason must be at most 1000 characters")
      .optional()
      .describe("Why the client declines (shown to the freelancer)"),
  })
  .strict()
  .optional();

/** The sorts the quote list takes: the invoice list's where a quote has the field. */
export const QUOTE_SORT_FIELDS = [
  "createdAt",
  "updatedAt",
  "validUntil",
  "total",
  "number",
  "status",
] as const;
export type QuoteSortField = (typeof QUOTE_SORT_FIELDS)[number];
export const INVALID_QUOTE_SORT = `Invalid sort. Use field:direction with field one of ${QUOTE_SORT_FIELDS.join(", ")} and direction asc or desc`;

export const listQuotesQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
    status: z.enum(QUOTE_STATUSES).optional(),
    currency: z.enum(CURRENCIES).optional(),
    network: networkNameSchema.optional(),
    networkPassphrase: networkPassphraseSchema.optional(),
    clientEmail: z.string().trim().max(200).optional(),
    q: searchQuerySchema("quotes").optional(),
    sort: z
      .string()
      .regex(new RegExp(`^(${QUOTE_SORT_FIELDS.join("|")}):(asc|desc)$`), INVALID_QUOTE_SORT)
      .optional(),
    starting_after: z.string().min(1).max(64).optional().meta({
      description:
        "Keyset paging as GET /api/invoices: the page starts right after this quote (one of the caller's) in the requested sort (with `q` and no `sort`: in the ranking, unless the search is broad, `totalExact` false)",
    }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.starting_after !== undefined && v.offset !== undefined) {
      ctx.addIssue({ code: "custom", path: ["offset"], message: OFFSET_WITH_CURSOR });
    }
  });
export type ListQuotesQuery = z.infer<typeof listQuotesQuerySchema>;

// ---- responses (lib/serializers/quotes.ts) ------------------------------------------------------

const quoteStatus = z.enum(QUOTE_STATUSES).meta({
  id: "SalesQuoteStatus",
  description:
    "DRAFT (editable), SENT (the client may accept or decline until validUntil), ACCEPTED, CONVERTED (accepted and made into the invoice `invoiceId`), DECLINED, EXPIRED (validUntil ended while SENT)",
});
const quoteLine = lineItemB.omit({ invoiceId: true }).meta({ id: "SalesQuoteLine" });

const quoteAmounts = {
  currency,
  priceCurrency: z.enum(PRICE_CURRENCIES).nullable(),
  networkPassphrase,
  subtotal: decimal,
  taxRate: decimal,
  taxAmount: decimal,
  discount: decimal,
  total: decimal,
  taxBreakdown: taxBreakdownB,
  lineItems: z.array(quoteLine),
};

const quoteCommon = {
  id,
  number: z.string().meta({ description: "The wallet's own gap-free series", example: "QT-0001" }),
  status: quoteStatus,
  validUntil: z.string().meta({ example: "2026-12-31" }),
  title: textOutputs.title,
  description: textOutputs.description,
  freelancerName: textOutputs.freelancerName,
  freelancerCompany: textOutputs.freelancerCompany,
  clientName: textOutputs.clientName,
  clientCompany: textOutputs.clientCompany,
  language: dataOutputs.language,
  ...quoteAmounts,
  onAccept: z.enum(QUOTE_ON_ACCEPT),
  sentAt: timestamp.nullable(),
  acceptedAt: timestamp.nullable(),
  declinedAt: timestamp.nullable(),
  expiredAt: timestamp.nullable(),
  invoiceId: id.nullable().meta({ description: "The invoice made from it on acceptance" }),
  quoteUrl: z.url().meta({ description: "`{APP_URL}/quote/<id>`: the client's page" }),
  pdfUrl: z.string().meta({ example: "/api/quotes/clx8f2k9p0000abcd1234efgh/pdf" }),
  createdAt: timestamp,
};

const quoteAudit = z
  .object({
    id,
    action: z.enum(QUOTE_AUDIT_ACTIONS),
    actorWallet: z.string().meta({
      description: "Wallet, `key:<prefix>`, `CLIENT` (the client's accept or decline), `SYSTEM`",
    }),
    changes: z.record(z.string(), z.unknown()).nullable(),
    createdAt: timestamp,
  })
  .meta({ id: "SalesQuoteAuditLogEntry" });

const ownerQuoteB = z.object({
  ...quoteCommon,
  ...textOutputs,
  ...dataOutputs,
  emailClient: z.boolean(),
  acceptedName: z.string().nullable(),
  acceptedIp: z.string().nullable().meta({ description: "The address the acceptance came from" }),
  declineReason: z.string().nullable(),
  updatedAt: timestamp,
  auditLogs: z.array(quoteAudit),
});

export const ownerQuote = wire("SalesQuote", ownerQuoteB, {
  description: "The owner's view of a quote: every field and the audit trail",
});

const publicQuoteB = z.object({
  ...quoteCommon,
  pdfUrl: z.string().meta({ example: "/api/quotes/clx8f2k9p0000abcd1234efgh/pdf" }),
});
export const publicQuote = wire("PublicSalesQuote", publicQuoteB, {
  description:
    "The client's view (the quote page): what is offered and by whom, never emails, addresses, notes or the audit trail",
});

const quoteListItem = ownerQuoteB.pick({
  id: true,
  number: true,
  status: true,
  title: true,
  clientName: true,
  clientEmail: true,
  total: true,
  currency: true,
  priceCurrency: true,
  networkPassphrase: true,
  validUntil: true,
  invoiceId: true,
  createdAt: true,
});
export const quotePage = wire(
  "SalesQuotePage",
  z.object({ quotes: z.array(quoteListItem), ...searchPageFields }),
);

export const deletedQuote = wire("DeletedSalesQuote", z.object({ success: z.literal(true) }));

export type OwnerQuoteBody = z.output<typeof ownerQuoteB>;
export type PublicQuoteBody = z.output<typeof publicQuoteB>;
export type QuoteListItemBody = z.output<typeof quoteListItem>;
export type QuotePageBody = z.output<typeof quotePage.b>;
