import { z } from "zod";
import { INVOICE_STATUSES } from "@/lib/domain/invoice-state";
import { CURRENCIES } from "@/lib/domain/money";
import { walletAddressSchema } from "./auth";
import {
  amountSchema,
  discountSchema,
  dueDateSchema,
  emailSchema,
  INVALID_SORT,
  networkNameSchema,
  networkPassphraseSchema,
  optionalText,
  quantitySchema,
  queryBoolean,
  rateSchema,
  SORT_FIELDS,
  taxRateSchema,
} from "./common";

export const lineItemInputSchema = z
  .object({
    description: z.string().trim().min(1, "Description is required").max(200),
    quantity: quantitySchema,
    rate: rateSchema,
  })
  .strict();

const lineItemsSchema = z
  .array(lineItemInputSchema)
  .min(1, "At least one line item is required")
  .max(100);

/** Fields shared by create and update; both forms' names are accepted (decisions.md). */
const invoiceFields = {
  invoiceNumber: z
    .string()
    .trim()
    .max(28)
    .optional()
    .describe("`INV-` + 1-24 of A-Z a-z 0-9 -; generated (INV-0001...) when blank"),
  freelancerWallet: walletAddressSchema.optional(),
  freelancerName: optionalText(200),
  freelancerEmail: emailSchema.nullish(),
  freelancerCompany: optionalText(200),
  clientName: z.string().trim().min(1, "Client name is required").max(100),
  clientEmail: emailSchema,
  clientCompany: optionalText(200),
  clientAddress: optionalText(500),
  title: z.string().trim().min(1).max(200),
  description: optionalText(2000),
  notes: optionalText(500),
  currency: z.enum(CURRENCIES),
  networkPassphrase: networkPassphraseSchema,
  network: networkNameSchema.describe("Form A alias of networkPassphrase"),
  taxRate: taxRateSchema.nullish(),
  discount: discountSchema.nullish(),
  dueDate: dueDateSchema.nullish(),
  lineItems: lineItemsSchema.describe("Form B name of the line items"),
  items: lineItemsSchema.describe("Form A name of the line items"),
  amount: amountSchema.describe("Form A cross-check: must equal the computed subtotal"),
};

export const createInvoiceSchema = z
  .object({
    ...invoiceFields,
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
  .strict()
  .superRefine((v, ctx) => {
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
  });

export type CreateInvoiceInput = z.infer<typeof createInvoiceSchema>;

export const updateInvoiceSchema = z
  .object({
    invoiceNumber: invoiceFields.invoiceNumber,
    freelancerWallet: invoiceFields.freelancerWallet,
    freelancerName: invoiceFields.freelancerName,
    freelancerEmail: invoiceFields.freelancerEmail,
    freelancerCompany: invoiceFields.freelancerCompany,
    clientName: invoiceFields.clientName.optional(),
    clientEmail: invoiceFields.clientEmail.optional(),
    clientCompany: invoiceFields.clientCompany,
    clientAddress: invoiceFields.clientAddress,
    title: invoiceFields.title.optional(),
    description: invoiceFields.description,
    notes: invoiceFields.notes,
    currency: invoiceFields.currency.optional(),
    networkPassphrase: invoiceFields.networkPassphrase.optional(),
    network: invoiceFields.network.optional(),
    taxRate: invoiceFields.taxRate,
    discount: invoiceFields.discount,
    dueDate: invoiceFields.dueDate,
    lineItems: invoiceFields.lineItems.optional(),
    items: invoiceFields.items.optional(),
    amount: invoiceFields.amount.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.lineItems && v.items) {
      ctx.addIssue({ code: "custom", path: ["items"], message: "Send either lineItems or items" });
    }
  });

export type UpdateInvoiceInput = z.infer<typeof updateInvoiceSchema>;

export const cancelInvoiceSchema = z
  .object({ reason: z.string().trim().max(500).optional() })
  .strict()
  .optional();

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
    sort: z
      .string()
      .regex(new RegExp(`^(${SORT_FIELDS.join("|")}):(asc|desc)$`), INVALID_SORT)
      .optional(),
    envelope: z.string().optional(),
  })
  .strict();

export type ListInvoicesQuery = z.infer<typeof listInvoicesQuerySchema>;

export const statsQuerySchema = z
  .object({
    network: networkNameSchema.optional(),
    networkPassphrase: networkPassphraseSchema.optional(),
    includeDemoLinks: queryBoolean.optional(),
    envelope: z.string().optional(),
  })
  .strict();
