import { TAX_SCHEMES } from "@/lib/domain/address";
import { INVOICE_STATUSES } from "@/lib/domain/invoice-state";
import { CURRENCIES, PRICE_CURRENCIES } from "@/lib/domain/money";
import { MAX_REMINDERS, REMINDER_OFFSET_MAX, REMINDER_OFFSET_MIN } from "@/lib/domain/reminders";
import { TOLERANCE_SPEC } from "@/lib/domain/settlement";
import { TAX_CATEGORIES } from "@/lib/domain/tax-categories";
import { LANGUAGES, languageMessage } from "@/lib/i18n/languages";
import { z } from "@/lib/zod";
import { walletAddressSchema } from "./auth";
import {
  amountSchema,
  decimalSchema,
  discountSchema,
  dueDateSchema,
  emailSchema,
  INVALID_SORT,
  networkNameSchema,
  networkPassphraseSchema,
  optionalText,
  quantitySchema,
  queryBoolean,
  quoteTtlSchema,
  rateSchema,
  SORT_FIELDS,
  searchQuerySchema,
  taxRateSchema,
} from "./common";
import { postalAddress, postalAddressSchema, taxSchemeSchema } from "./parties";
import {
  paymentA,
  paymentB,
  receivedPaymentA,
  receivedPaymentB,
  settledA,
  settledB,
} from "./received-payments";
import {
  acknowledged,
  auditAction,
  byAsset,
  currency,
  decimal,
  type FormB,
  id,
  int,
  invoiceStatus,
  muxedAccount,
  networkPassphrase,
  number,
  payerAccount,
  paymentLink,
  searchPageFields,
  timestamp,
  txHash,
  wallet,
  wire,
} from "./wire";

export const lineItemInputSchema = z
  .object({
    description: z.string().trim().min(1, "Description is required").max(200),
    quantity: quantitySchema,
    rate: rateSchema,
    taxRate: taxRateSchema
      .nullish()
      .describe(
        "The line's own VAT rate, percent, 0 to 100, 2 decimals; left out: the invoice's taxRate (docs: Tax per line)",
      ),
    taxCategory: z
      .enum(TAX_CATEGORIES, { error: `taxCategory must be one of ${TAX_CATEGORIES.join(", ")}` })
      .nullish()
      .describe(
        "EN 16931 VAT category: S standard, Z zero rated, E exempt, AE reverse charge, K intra-community supply, G export, O outside the scope; left out: S, or Z at 0 %",
      ),
    exemptionReason: optionalText(300).describe(
      "Why no VAT is charged: required for E, AE, K, G and O (or exemptionReasonCode)",
    ),
    exemptionReasonCode: optionalText(30).describe("The VATEX code, e.g. VATEX-EU-AE"),
  })
  .strict();

const lineItemsSchema = z
  .array(lineItemInputSchema)
  .min(1, "At least one line item is required")
  .max(100);

const REMINDER_RANGE = `Reminder offsets are ${REMINDER_OFFSET_MIN} to ${REMINDER_OFFSET_MAX} days`;

/** Reminder offsets in days relative to the due date (docs/decisions.md, Reminders and receipts). */
export const remindersSchema = z
  .array(
    z
      .number()
      .int("Reminder offsets are whole days")
      .min(REMINDER_OFFSET_MIN, REMINDER_RANGE)
      .max(REMINDER_OFFSET_MAX, REMINDER_RANGE),
  )
  .max(MAX_REMINDERS, `At most ${MAX_REMINDERS} reminders`)
  .refine((a) => new Set(a).size === a.length, "Reminder offsets must be unique")
  .describe(
    "Reminder emails, in days relative to the due date (e.g. [-3, 0, 7]: 3 days before, on the day, a week late); whole days -60 to 60, at most 5, unique; null or absent: the profile's default reminders",
  );

/**
 * The invoice's text fields, one entry each: the request's rule (`input`) and the answer's type
 * (`output`). Everything else is derived from this list (ARCHITECTURE.md, Adding an invoice
 * field): the create and update bodies, the row a create stores, the update's diff, the
 * duplicate's copy, the owner view in both forms, the form's text boxes and the PDF's data.
 * The order is the answer's.
 */
export const INVOICE_TEXT_FIELDS = {
  freelancerName: { input: optionalText(200), output: z.string().nullable() },
  freelancerEmail: { input: emailSchema.nullish(), output: z.string().nullable() },
  freelancerCompany: { input: optionalText(200), output: z.string().nullable() },
  clientName: {
    input: z.string().trim().min(1, "Client name is required").max(100),
    output: z.string(),
  },
  clientEmail: { input: emailSchema, output: z.string() },
  clientCompany: { input: optionalText(200), output: z.string().nullable() },
  clientAddress: { input: optionalText(500), output: z.string().nullable() },
  title: { input: z.string().trim().min(1).max(200), output: z.string() },
  description: { input: optionalText(2000), output: z.string().nullable() },
  notes: { input: optionalText(500), output: z.string().nullable() },
  paymentTerms: {
    input: optionalText(300).describe(
      "Payment terms in words, printed on the PDF (e.g. Net 30, 2 % discount within 10 days)",
    ),
    output: z.string().nullable(),
  },
  buyerReference: {
    input: optionalText(200).describe(
      "The buyer's reference for the invoice (EN 16931 BT-10): for a German public buyer its Leitweg-ID, which an XRechnung requires; left out with a saved client (clientId), the client's",
    ),
    output: z.string().nullable(),
  },
  clientTaxId: {
    input: optionalText(50).describe(
      "The buyer's VAT number, ABN...: checked under clientTaxScheme when one is given (400 with details.clientTaxId)",
    ),
    output: z.string().nullable(),
  },
} as const;

export type InvoiceTextField = keyof typeof INVOICE_TEXT_FIELDS;
type TextFields = typeof INVOICE_TEXT_FIELDS;

/** The text fields' names, in the answer's order. */
export const INVOICE_TEXT_KEYS = Object.keys(INVOICE_TEXT_FIELDS) as InvoiceTextField[];

function eachTextField<R>(
  pick: (field: TextFields[InvoiceTextField]) => R,
): Record<InvoiceTextField, R> {
  return Object.fromEntries(
    INVOICE_TEXT_KEYS.map((k) => [k, pick(INVOICE_TEXT_FIELDS[k])]),
  ) as Record<InvoiceTextField, R>;
}

const textInputs = eachTextField((f) => f.input) as {
  [K in InvoiceTextField]: TextFields[K]["input"];
};
export const textOutputs = eachTextField((f) => f.output) as {
  [K in InvoiceTextField]: TextFields[K]["output"];
};

/**
 * The invoice's other stored fields kept as given (null when left out): the same derivations
 * as the text fields, but they are not text boxes. The answer lists them after `notes`.
 */
export const INVOICE_DATA_FIELDS = {
  taxCurrency: {
    input: z
      .enum(PRICE_CURRENCIES, { error: "taxCurrency must be USD or EUR" })
      .nullish()
      .describe(
        "Show the tax also in this currency (EU VAT Directive art. 230): the rate from the invoice's unit is fixed when it is sent and never changes; USD or EUR (what the price feed converts)",
      ),
    output: z.enum(PRICE_CURRENCIES).nullable(),
  },
  supplyDate: {
    input: daySchema("supplyDate").describe(
      "The date of supply (EU VAT Directive art. 226 (7)), YYYY-MM-DD, when it differs from the issue date",
    ),
    output: z.string().nullable(),
  },
  periodStart: {
    input: daySchema("periodStart").describe("A service period's first day, YYYY-MM-DD"),
    output: z.string().nullable(),
  },
  periodEnd: {
    input: daySchema("periodEnd").describe(
      "A service period's last day, YYYY-MM-DD, on or after periodStart",
    ),
    output: z.string().nullable(),
  },
  clientTaxScheme: { input: taxSchemeSchema.nullish(), output: z.enum(TAX_SCHEMES).nullable() },
  clientPostalAddress: {
    input: postalAddressSchema
      .nullish()
      .describe("The buyer's structured address; its country is the buyer's country"),
    output: postalAddress.nullable(),
  },
  clientIsBusiness: {
    input: z
      .boolean()
      .nullish()
      .describe("Whether the buyer is a business (a VAT-registered one may be reverse charged)"),
    output: z.boolean().nullable(),
  },
  language: {
    input: z
      .enum(LANGUAGES, { error: languageMessage("language") })
      .optional()
      .describe(
        "The language of the invoice's documents (PDF, emails to the client, checkout page): en, de, fr, es or pt; left out: the saved client's (clientId), else the profile's defaultLanguage, else en (docs: Languages)",
      ),
    output: z.enum(LANGUAGES).meta({ description: "The documents' language", example: "en" }),
  },
} as const;

export type InvoiceDataField = keyof typeof INVOICE_DATA_FIELDS;

/** A calendar day, `YYYY-MM-DD`, that exists. */
function daySchema(what: string) {
  return z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${what} must be a date, YYYY-MM-DD`)
    .refine(
      (v) => new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v,
      `${what} must be a date that exists`,
    )
    .nullish();
}

/** A service period ends on or after it starts (EN 16931 BR-29); checked where both are known. */
export const PERIOD_ORDER = "periodEnd must be on or after periodStart";
export function periodRule(
  v: { periodStart?: string | null; periodEnd?: string | null },
  ctx: z.RefinementCtx,
): void {
  if (v.periodStart && v.periodEnd && v.periodEnd < v.periodStart) {
    ctx.addIssue({ code: "custom", path: ["periodEnd"], message: PERIOD_ORDER });
  }
}
type DataFields = typeof INVOICE_DATA_FIELDS;
export const INVOICE_DATA_KEYS = Object.keys(INVOICE_DATA_FIELDS) as InvoiceDataField[];
/** Every field stored as given: text and data. */
export type InvoiceStoredField = InvoiceTextField | InvoiceDataField;
export const INVOICE_STORED_KEYS: InvoiceStoredField[] = [
  ...INVOICE_TEXT_KEYS,
  ...INVOICE_DATA_KEYS,
];

const dataInputs = Object.fromEntries(
  INVOICE_DATA_KEYS.map((k) => [k, INVOICE_DATA_FIELDS[k].input]),
) as { [K in InvoiceDataField]: DataFields[K]["input"] };
export const dataOutputs = Object.fromEntries(
  INVOICE_DATA_KEYS.map((k) => [k, INVOICE_DATA_FIELDS[k].output]),
) as { [K in InvoiceDataField]: DataFields[K]["output"] };

/** Fields shared by create and update; both forms' names are accepted (docs/decisions.md). */
const invoiceFields = {
  invoiceNumber: z
    .string()
    .trim()
    .max(28)
    .optional()
    .describe(
      "`INV-` + 1-24 of A-Z a-z 0-9 -, unused by the wallet; the wallet's next generated number (INV-0001...) when blank",
    ),
  freelancerWallet: walletAddressSchema.optional(),
  ...textInputs,
  ...dataInputs,
  currency: z.enum(CURRENCIES),
  priceCurrency: z
    .enum(PRICE_CURRENCIES, { error: "priceCurrency must be USD or EUR" })
    .nullish()
    .describe(
      "Price the invoice in USD or EUR: rates, discount and total are then fiat with 2 decimals, and `currency` is the asset the payer settles in at a quote locked by each pay-intent",
    ),
  quoteTtlMinutes: quoteTtlSchema,
  networkPassphrase: networkPassphraseSchema,
  network: networkNameSchema.describe("Form A alias of networkPassphrase"),
  taxRate: taxRateSchema.nullish(),
  discount: discountSchema.nullish(),
  paymentTolerance: decimalSchema(TOLERANCE_SPEC)
    .nullish()
    .describe(
      "percent, 0 to 5, 2 decimals (default 0): PAID once amountPaid >= total x (1 - paymentTolerance/100)",
    ),
  dueDate: dueDateSchema.nullish(),
  reminders: remindersSchema.nullish(),
  emailClient: z
    .boolean()
    .optional()
    .describe(
      "Email the invoice (and receipts, reminders) to clientEmail when it is sent (default true)",
    ),
  lineItems: lineItemsSchema.describe("Form B name of the line items"),
  items: lineItemsSchema.describe("Form A name of the line items"),
  amount: amountSchema.describe("Form A cross-check: must equal the computed subtotal"),
};

export const CLIENT_DETAILS_WITH_ID =
  "Leave the client's details out with clientId: the saved client's are used";
export const CLIENT_NAME_REQUIRED = "Client name is required";
export const CLIENT_EMAIL_REQUIRED = "Client email is required";

/** The client's name and email as a new invoice without a saved client requires them. */
export const requiredClientFields = {
  clientName: invoiceFields.clientName,
  clientEmail: invoiceFields.clientEmail,
};

/**
 * The create body before its rules (`createBodyRule`); the recurring template is an `.omit`
 * of it (lib/schemas/recurring.ts), so both are checked by the same definition.
 */
export const createInvoiceObject = z
  .object({
    ...invoiceFields,
    clientId: z
      .string({ error: "clientId must be a saved client's id" })
      .trim()
      .min(1, "clientId must be a saved client's id")
      .max(40, "clientId must be a saved client's id")
      .optional()
      .describe(
        "A saved client (GET /api/clients) whose name, email, company, address and tax identity the invoice takes as they are when it is created (for a recurring template: at each period); the client fields are then left out",
      ),
    clientName: invoiceFields.clientName.optional().describe("required without `clientId`"),
    clientEmail: invoiceFields.clientEmail.optional().describe("required without `clientId`"),
    title: invoiceFields.title.optional().describe("defaults to `Invoice <invoiceNumber>`"),
    currency: invoiceFields.currency.optional().describe("default XLM"),
    networkPassphrase: invoiceFields.networkPassphrase.optional().describe("default testnet"),
    network: invoiceFields.network.optional(),
    lineItems: invoiceFields.lineItems.optional(),
    items: invoiceFields.items.optional(),
    amount: invoiceFields.amount.optional(),
    saveClient: z.boolean().optional(),
    favoriteClient: z.boolean().optional(),
  })
  .strict();

/** Line items in exactly one of the two forms' names. */
export function lineItemsRule(
  v: { lineItems?: unknown; items?: unknown },
  ctx: z.RefinementCtx,
): void {
  if (!v.lineItems && !v.items) {
    ctx.addIssue({
      code: "custom",
      path: ["lineItems"],
      message: "At least one line item is required",
    });
  }
  if (v.lineItems && v.items) {
    ctx.addIssue({ code: "custom", path: ["items"], message: "Send either lineItems or items" });
  }
}

/** The client fields a saved client (`clientId`) supplies instead. */
export const CLIENT_DETAILS = [
  "clientName",
  "clientEmail",
  "clientCompany",
  "clientAddress",
  "clientTaxId",
  "clientTaxScheme",
  "clientPostalAddress",
  "clientIsBusiness",
] as const;

/**
 * The client: a saved client (`clientId`) or typed details (name and email required), never
 * both, so which details an invoice gets is never a guess.
 */
export function clientRule(
  v: { clientId?: unknown } & Partial<Record<(typeof CLIENT_DETAILS)[number], unknown>>,
  ctx: z.RefinementCtx,
): void {
  if (v.clientId !== undefined) {
    for (const key of CLIENT_DETAILS) {
      if (v[key] != null)
        ctx.addIssue({ code: "custom", path: [key], message: CLIENT_DETAILS_WITH_ID });
    }
    return;
  }
  if (v.clientName === undefined) {
    ctx.addIssue({ code: "custom", path: ["clientName"], message: CLIENT_NAME_REQUIRED });
  }
  if (v.clientEmail === undefined) {
    ctx.addIssue({ code: "custom", path: ["clientEmail"], message: CLIENT_EMAIL_REQUIRED });
  }
}

/** Every rule of a create body beyond its fields' own (the recurring template's too). */
export function createBodyRule(
  v: Parameters<typeof lineItemsRule>[0] &
    Parameters<typeof clientRule>[0] &
    Parameters<typeof periodRule>[0],
  ctx: z.RefinementCtx,
): void {
  lineItemsRule(v, ctx);
  clientRule(v, ctx);
  periodRule(v, ctx);
}

export const createInvoiceSchema = createInvoiceObject.superRefine(createBodyRule);

/**
 * An invoice to be made later: the create body without what belongs to one issued invoice (its
 * number and due date) and without the client-saving switches. A recurring template
 * (lib/schemas/recurring.ts) and a quote (lib/schemas/quotes.ts) are this object, so both take
 * the invoice's lines, tax, pricing and language as the create does.
 */
export const invoiceTemplateObject = createInvoiceObject.omit({
  dueDate: true,
  invoiceNumber: true,
  saveClient: true,
  favoriteClient: true,
});

export type CreateInvoiceInput = z.infer<typeof createInvoiceSchema>;

/** PATCH: any subset of the create body's fields (less the saved-client switches). */
export const updateInvoiceSchema = z
  .object(invoiceFields)
  .partial()
  .strict()
  .superRefine((v, ctx) => {
    if (v.lineItems && v.items) {
      ctx.addIssue({ code: "custom", path: ["items"], message: "Send either lineItems or items" });
    }
    periodRule(v, ctx);
  });

export type UpdateInvoiceInput = z.infer<typeof updateInvoiceSchema>;

/** The body is optional. */
export const cancelInvoiceSchema = z
  .object({ reason: z.string().trim().max(500).optional() })
  .strict()
  .optional();

/** `starting_after` and `offset` are two ways of paging; one request uses one. */
export const OFFSET_WITH_CURSOR = "Use either offset or starting_after, not both";

export const listInvoicesQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
    status: z.enum(INVOICE_STATUSES).optional(),
    currency: z.enum(CURRENCIES).optional(),
    network: networkNameSchema.optional(),
    networkPassphrase: networkPassphraseSchema.optional(),
    clientEmail: z.string().trim().max(200).optional(),
    excludePreview: queryBoolean.optional(),
    q: searchQuerySchema("invoices").optional(),
    sort: z
      .string()
      .regex(new RegExp(`^(${SORT_FIELDS.join("|")}):(asc|desc)$`), INVALID_SORT)
      .optional(),
    starting_after: z.string().min(1).max(64).optional().meta({
      description:
        "Keyset paging: the page starts right after this invoice (one of the caller's, deleted ones included) in the requested sort (with `q` and no `sort`: in the ranking, the invoice's rank for this `q` then the default order; a broad search, `totalExact` false, is not ranked and pages in the list's order). Pass the last id of the previous page. Works with every sort; not with `offset`. The answer's `offset` is the number of matching invoices before the page.",
    }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.starting_after !== undefined && v.offset !== undefined) {
      ctx.addIssue({ code: "custom", path: ["offset"], message: OFFSET_WITH_CURSOR });
    }
  });

export type ListInvoicesQuery = z.infer<typeof listInvoicesQuerySchema>;

export const statsQuerySchema = z
  .object({
    network: networkNameSchema.optional(),
    networkPassphrase: networkPassphraseSchema.optional(),
    includeDemoLinks: queryBoolean.optional(),
  })
  .strict();

// ---- responses (lib/serializers/invoices.ts) -----------------------------------------------

/** A line's own tax: null when it takes the invoice's rate. */
const lineTaxFields = {
  taxRate: decimal.nullable().meta({ description: "The line's own rate; null: the invoice's" }),
  taxCategory: z.enum(TAX_CATEGORIES).nullable(),
  exemptionReason: z.string().nullable(),
  exemptionReasonCode: z.string().nullable(),
};

export const lineItemB = z
  .object({
    id,
    invoiceId: id,
    description: z.string(),
    quantity: decimal,
    rate: decimal,
    amount: decimal,
    ...lineTaxFields,
  })
  .meta({ id: "LineItem" });
const lineItemA = lineItemB
  .omit({ invoiceId: true })
  .extend({ quantity: number, rate: number, amount: number, taxRate: number.nullable() })
  .meta({ id: "LineItemFormA" });

/** One row per tax category and rate (docs/decisions.md, Tax per line). */
const taxBreakdownRowB = z
  .object({
    category: z.enum(TAX_CATEGORIES),
    rate: decimal,
    taxableAmount: decimal,
    taxAmount: decimal,
    exemptionReason: z.string().nullable(),
    exemptionReasonCode: z.string().nullable(),
  })
  .meta({ id: "TaxBreakdownRow" });
export const taxBreakdownB = z.array(taxBreakdownRowB).meta({
  description:
    "One row per VAT category and rate: the taxable amount (net of its share of the discount when lines carry their own tax) and its tax, rounded half up per row; taxAmount is their sum",
});
export const taxBreakdownA = z.array(
  taxBreakdownRowB
    .extend({ rate: number, taxableAmount: number, taxAmount: number })
    .meta({ id: "TaxBreakdownRowFormA" }),
);

/** The owner's view adds what was paid beyond the total and the tolerance. */
const overpaid = decimal.meta({ description: "max(amountPaid - total, 0)" });
const tolerance = z.string().meta({
  description:
    "Percent (0 to 5, 2 decimals): PAID once amountPaid >= total x (1 - paymentTolerance/100)",
  example: "0.00",
});

const changes = z.record(z.string(), z.unknown()).meta({
  description: "What changed, e.g. `{status: {from, to}}`; for PAID also the transaction",
  example: { status: { from: "DRAFT", to: "PENDING" } },
});
const auditB = z
  .object({
    id,
    invoiceId: id,
    action: auditAction,
    actorWallet: z.string().meta({ description: "Wallet, or `SYSTEM` for jobs" }),
    changes: changes.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: "AuditLogEntry" });
const auditA = z
  .object({ action: auditAction, actorWallet: z.string(), timestamp, metadata: changes.optional() })
  .meta({ id: "AuditLogEntryFormA" });

/** The answer's order, kept from before the text fields were one list: the payer's wallet, then what for. */
const { title: _title, description: _description, notes: _notes, ...partyOutputs } = textOutputs;

/** Who is paid, by whom and for what: the same in both forms. */
export const invoiceParties = z.object({
  id,
  invoiceNumber: z.string().meta({ example: "INV-0001" }),
  status: invoiceStatus,
  freelancerWallet: wallet,
  ...partyOutputs,
  clientWallet: wallet.nullable(),
  title: textOutputs.title,
  description: textOutputs.description,
  notes: textOutputs.notes,
  ...dataOutputs,
});

/** How an invoice is priced (docs/decisions.md, Fiat pricing): the same in both forms. */
export const invoicePricing = {
  priceCurrency: z.enum(PRICE_CURRENCIES).nullable().meta({
    description:
      "USD or EUR: the amounts are fiat (whole cents) and `currency` is the asset paid at a locked quote; null: priced in `currency`",
  }),
  quoteTtlMinutes: int.meta({ description: "Minutes a quote holds (fiat-priced invoices)" }),
};

/** Form B amounts (exact decimal strings as stored), with their currency and network. */
export const invoiceAmounts = z.object({
  subtotal: decimal,
  taxRate: decimal,
  taxAmount: decimal,
  discount: decimal,
  total: decimal,
  taxBreakdown: taxBreakdownB,
  currency,
  ...invoicePricing,
  networkPassphrase,
});

/** Dates, payment and link: the same in both forms. */
export const invoiceState = z.object({
  currency,
  networkPassphrase,
  dueDate: timestamp.nullable(),
  sentAt: timestamp.nullable(),
  taxExchange: z
    .object({
      currency: z
        .enum(PRICE_CURRENCIES)
        .meta({ description: "The currency taxAmount and the breakdown are in (taxCurrency)" }),
      rate: z.string().meta({ description: "1 unit of the invoice's amounts in taxCurrency" }),
      source: z.string(),
      at: timestamp,
      taxAmount: z.string().meta({ description: "The invoice's tax in taxCurrency, 2 decimals" }),
      breakdown: z.array(
        z.object({
          category: z.enum(TAX_CATEGORIES),
          rate: z.string(),
          taxableAmount: z.string(),
          taxAmount: z.string(),
        }),
      ),
    })
    .nullable()
    .meta({
      description:
        "The tax in taxCurrency at the rate fixed when the invoice was sent (each row converted and rounded half up to cents; taxAmount their sum); null without taxCurrency or before sending",
    }),
  issueDate: z.string().nullable().meta({
    description: "The invoice's date (EN 16931 BT-2): the UTC day it was sent; null while a draft",
    example: "2026-11-27",
  }),
  paidAt: timestamp.nullable(),
  transactionHash: txHash.nullable(),
  ledgerNumber: int.nullable(),
  payerWallet: payerAccount.nullable(),
  muxedAddress: muxedAccount,
  paymentLink,
  createdAt: timestamp,
  updatedAt: timestamp,
  recurringId: id.nullable().meta({
    description: "The recurring schedule that created it (GET /api/recurring/{id}); null otherwise",
  }),
  emailClient: z.boolean().meta({
    description: "The invoice, receipts and reminders are emailed to clientEmail",
  }),
  reminders: z
    .array(int)
    .nullable()
    .meta({
      description: "Reminder days relative to the due date; null: the profile's default reminders",
      example: [-3, 0, 7],
    }),
  remindersStoppedAt: timestamp.nullable().meta({
    description: "When the client stopped this invoice's reminders (the email's unsubscribe link)",
  }),
});

/** Each credit note of the invoice, oldest first (docs/decisions.md, Credit notes). */
const creditNoteSummary = z
  .object({
    id,
    number: z.string().meta({ example: "CN-0001" }),
    reason: z.string(),
    taxAmount: decimal,
    total: decimal.meta({ description: "Credited, tax included, in the invoice's unit" }),
    refundId: id.nullable(),
    pdfUrl: z.string().meta({ description: "GET it with the owner's session or key" }),
    createdAt: timestamp,
  })
  .meta({ id: "CreditNoteSummary" });
const creditFields = {
  amountCredited: decimal.meta({
    description: "The credit notes' totals: amountDue is total - amountCredited - amountPaid",
  }),
  creditNotes: z.array(creditNoteSummary),
};

export const ownerInvoice = wire(
  "Invoice",
  invoiceParties.extend({
    ...invoiceAmounts.shape,
    ...settledB,
    amountOverpaid: overpaid,
    paymentTolerance: tolerance,
    ...invoiceState.shape,
    cancelledAt: timestamp.nullable(),
    lineItems: z.array(lineItemB),
    payments: z.array(paymentB),
    auditLogs: z.array(auditB),
    ...creditFields,
  }),
  {
    a: invoiceParties.extend({
      amount: number.meta({ description: "Subtotal" }),
      taxRate: z.number(),
      taxAmount: z.number(),
      discount: z.number(),
      totalAmount: number,
      taxBreakdown: taxBreakdownA,
      ...settledA,
      amountOverpaid: number,
      paymentTolerance: z.number(),
      ...invoiceState.shape,
      ...invoicePricing,
      items: z.array(lineItemA),
      payments: z.array(paymentA),
      auditLog: z.array(auditA),
      ...creditFields,
    }),
    description: "The owner's view of an invoice: every field, payments and the audit trail",
  },
);

const publicInvoiceB = z.object({
  ...invoiceParties.pick({ id: true, invoiceNumber: true, status: true, title: true }).shape,
  description: z.string().nullable(),
  ...invoiceParties.pick({
    freelancerWallet: true,
    freelancerName: true,
    freelancerCompany: true,
    clientName: true,
  }).shape,
  muxedAddress: muxedAccount,
  ...invoiceAmounts.shape,
  ...settledB,
  dueDate: timestamp.nullable(),
  paidAt: timestamp.nullable(),
  transactionHash: txHash.nullable(),
  createdAt: timestamp,
  lineItems: z.array(lineItemB),
  payments: z.array(receivedPaymentB),
});

export const publicInvoice = wire("PublicInvoice", publicInvoiceB, {
  a: publicInvoiceB
    .pick({ id: true, invoiceNumber: true, clientName: true, currency: true, status: true })
    .extend({
      amount: number,
      totalAmount: number,
      ...settledA,
      ...invoicePricing,
      dueDate: timestamp.nullable(),
      items: z.array(lineItemA),
      payments: z.array(receivedPaymentA),
      createdAt: timestamp,
    }),
  description:
    "The payer's view: the payments received (each payer's own), never emails, addresses, notes or the audit trail",
});

const listItemB = publicInvoiceB.pick({
  id: true,
  invoiceNumber: true,
  status: true,
  title: true,
  clientName: true,
  total: true,
  amountPaid: true,
  amountDue: true,
  currency: true,
  // The unit of total, amountPaid and amountDue when the invoice is priced in fiat.
  priceCurrency: true,
  networkPassphrase: true,
  dueDate: true,
  createdAt: true,
});

export const invoicePage = wire(
  "InvoicePage",
  z.object({ invoices: z.array(listItemB), ...searchPageFields }),
  {
    a: z.object({
      items: z.array(
        listItemB
          .omit({ title: true, total: true, networkPassphrase: true })
          .extend({ amount: number, totalAmount: number, ...settledA, paymentLink }),
      ),
      ...searchPageFields,
    }),
  },
);

const statusChange = z.object({ id, status: invoiceStatus });

export const sentInvoice = wire(
  "SentInvoice",
  statusChange.extend({ sentAt: timestamp.nullable(), updatedAt: timestamp }),
  { a: statusChange.extend({ paymentLink, sentAt: timestamp.nullable() }) },
);

export const cancelledInvoice = wire(
  "CancelledInvoice",
  statusChange.extend({ cancelledAt: timestamp.nullable(), updatedAt: timestamp }),
  { a: statusChange.extend({ cancelledAt: timestamp.nullable() }) },
);

export const deletedInvoice = wire("DeletedInvoice", acknowledged, {
  a: z.object({ id, message: z.literal("Invoice deleted successfully") }),
});

const statusBreakdown = z.object(
  Object.fromEntries(INVOICE_STATUSES.map((s) => [s, int])) as Record<
    (typeof INVOICE_STATUSES)[number],
    typeof int
  >,
);

/** A fiat-priced invoices' figure set in one price currency. */
const pricedFigures = <T extends z.ZodType>(amount: T) =>
  z.object({
    totalRevenue: amount,
    revenueThisMonth: amount,
    avgInvoiceValue: amount,
    pendingAmount: amount,
  });

/** Both forms of the statistics: amounts are `amount` (decimal or number). */
const stats = <T extends z.ZodType>(amount: T) =>
  z.object({
    totalInvoices: int,
    paidInvoices: int,
    pendingInvoices: int,
    totalRevenue: byAsset(amount).meta({
      description:
        "Per asset received: sum of the applied payments' asset amounts (less refunds), partial payments included, whatever the invoice's pricing; unapplied payments never count",
    }),
    revenueThisMonth: byAsset(amount).meta({
      description: "`totalRevenue` of the payments confirmed in the current UTC month",
    }),
    avgInvoiceValue: byAsset(amount).meta({
      description:
        "Mean total of PAID invoices priced in the asset itself (fiat-priced ones are in `byPriceCurrency`)",
    }),
    pendingAmount: byAsset(amount).meta({
      description:
        "Sum of the amounts due of invoices priced in the asset awaiting payment (PENDING, PROCESSING, FAILED, EXPIRED); fiat-priced ones are in `byPriceCurrency`",
    }),
    byPriceCurrency: z
      .object(
        Object.fromEntries(PRICE_CURRENCIES.map((c) => [c, pricedFigures(amount)])) as Record<
          (typeof PRICE_CURRENCIES)[number],
          ReturnType<typeof pricedFigures<T>>
        >,
      )
      .meta({
        description:
          "Fiat-priced invoices, keyed by their priceCurrency (USD, EUR), in that currency with 2 decimals: `totalRevenue` and `revenueThisMonth` (what their applied payments counted for, less the refunded share), `avgInvoiceValue` (mean total of the PAID ones), `pendingAmount` (amounts due of those awaiting payment). Never added to the per-asset figures' avgInvoiceValue and pendingAmount",
      }),
    statusBreakdown,
    recentActivity: z.array(
      z.object({
        invoiceId: id,
        invoiceNumber: z.string(),
        action: auditAction,
        amount: amount.meta({
          description:
            "A REFUNDED entry: the amount sent back, in `currency`; any other: the invoice's total, in `priceCurrency` when set, else in `currency`",
        }),
        currency,
        priceCurrency: z.enum(PRICE_CURRENCIES).nullable().meta({
          description:
            "The unit of `amount` when it is a fiat-priced invoice's total; null: `amount` is in `currency`",
        }),
        timestamp,
      }),
    ),
    revenueByMonth: z.array(
      z.object({ month: z.string().meta({ example: "2026-01" }), revenue: byAsset(amount) }),
    ),
    revenue: z.object({ currency: z.enum(PRICE_CURRENCIES), amount, unpriced: int }).meta({
      description:
        "Revenue in the reporting currency: the applied payments' fiatValue less the refunded share, 2 decimals; `unpriced` counts applied payments with no value (recorded before prices were kept)",
    }),
    linkRevenue: z
      .object({
        payments: int.meta({ description: "Applied payments received through links" }),
        totalRevenue: byAsset(amount),
        revenueThisMonth: byAsset(amount),
        byPriceCurrency: z.object(
          Object.fromEntries(
            PRICE_CURRENCIES.map((c) => [
              c,
              z.object({ totalRevenue: amount, revenueThisMonth: amount }),
            ]),
          ) as Record<
            (typeof PRICE_CURRENCIES)[number],
            z.ZodObject<{ totalRevenue: T; revenueThisMonth: T }>
          >,
        ),
      })
      .meta({
        description:
          "Payment links (single-use links and reusable links' checkouts), counted whatever `includeDemoLinks` says and never in the figures above unless it is true: `totalRevenue` and `revenueThisMonth` per asset received (applied payments less refunds), `byPriceCurrency` what fiat-priced links' payments counted for in USD or EUR (2 decimals)",
      }),
  });

export const invoiceStats = wire("InvoiceStats", stats(decimal), { a: stats(number) });

/** Form B bodies, as the browser reads them. */
export type InvoiceBody = FormB<typeof ownerInvoice>;
export type LineItemBody = InvoiceBody["lineItems"][number];
export type PaymentBody = InvoiceBody["payments"][number];
export type ReceivedPaymentBody = z.output<typeof receivedPaymentB>;
export type AuditLogBody = InvoiceBody["auditLogs"][number];
export type InvoicePageBody = FormB<typeof invoicePage>;
export type InvoiceListItemBody = InvoicePageBody["invoices"][number];
export type InvoiceStatsBody = FormB<typeof invoiceStats>;
