import type { TaxScheme } from "@/lib/domain/address";
import { ValidationError } from "@/lib/domain/errors";
import { DEFAULT_QUOTE_TTL_MINUTES } from "@/lib/domain/fiat";
import { INVALID_INVOICE_NUMBER_MESSAGE, isValidInvoiceNumber } from "@/lib/domain/invoice-number";
import { AMOUNT_SCALE, type Currency, FIAT_SCALE, type PriceCurrency } from "@/lib/domain/money";
import { computeInvoiceTotals, type InvoiceTotals, type TaxCategory } from "@/lib/domain/tax";
import { isZero, type NetworkName, networkOf, trimZeros } from "@/lib/format";
import type { Language } from "@/lib/i18n/languages";
import type { InvoiceBody, InvoiceTextField } from "@/lib/schemas/invoices";
import {
  createInvoiceSchema,
  INVOICE_TEXT_KEYS,
  requiredClientFields,
  updateInvoiceSchema,
} from "@/lib/schemas/invoices";
import { z } from "@/lib/zod";
import { type AddressValues, addressBoxes, addressFromForm } from "./address-form";
import { fromInput, fromTextBox } from "./form-schema";

/**
 * The invoice form's values and their rules. The rules are the API's own request schemas
 * (lib/schemas/invoices.ts: required fields, email, due date, line-item bounds, tax and
 * discount ranges) applied to what the text boxes hold; the totals are the service's own
 * computeTotals (lib/domain/money.ts). Nothing here restates a server rule.
 */

export type LineItemValues = {
  description: string;
  quantity: string;
  rate: string;
  /** A line's own tax (docs/decisions.md, Tax per line), kept through an edit; "" or absent: none. */
  taxRate?: string;
  taxCategory?: string;
  exemptionReason?: string;
  exemptionReasonCode?: string;
};

/** The invoice's text fields (INVOICE_TEXT_FIELDS) are text boxes, as typed. */
export type InvoiceFormValues = Record<InvoiceTextField, string> & {
  invoiceNumber: string;
  currency: Currency;
  /** "" = priced in the asset itself; USD or EUR = priced in fiat, paid in `currency`. */
  priceCurrency: PriceCurrency | "";
  /** Minutes a quote holds (fiat-priced only), as typed. */
  quoteTtlMinutes: string;
  network: NetworkName;
  taxRate: string;
  discount: string;
  paymentTolerance: string;
  dueDate: string;
  saveClient: boolean;
  favoriteClient: boolean;
  /** Email the invoice (then receipts and reminders) to the client when it is sent. */
  emailClient: boolean;
  /** The buyer's tax id's scheme (docs/decisions.md, Tax identities); "": kept as typed. */
  clientTaxScheme: TaxScheme | "";
  /** The buyer is a business (unchecked: not said). */
  clientIsBusiness: boolean;
  /** The buyer's structured address (docs/decisions.md, Tax identities); all blank: none. */
  clientPostalAddress: AddressValues;
  /** The documents' language; "": the saved client's, else the profile's (docs/decisions.md, Languages). */
  language: Language | "";
  /** Reminder days relative to the due date, as typed ("-3, 0, 7"); blank: the profile's. */
  reminders: string;
  lineItems: LineItemValues[];
};

/** The fields of a draft (the owner view, GET /api/invoices/:id/owner) an edit starts from. */
export type DraftInvoice = Pick<
  InvoiceBody,
  | TextKey
  | "currency"
  | "priceCurrency"
  | "quoteTtlMinutes"
  | "networkPassphrase"
  | "invoiceNumber"
  | "dueDate"
  | "emailClient"
  | "lineItems"
  | "clientTaxScheme"
  | "clientIsBusiness"
  | "clientPostalAddress"
  | "language"
>;

export type TextKey = Exclude<
  keyof InvoiceFormValues,
  | "currency"
  | "priceCurrency"
  | "quoteTtlMinutes"
  | "network"
  | "saveClient"
  | "favoriteClient"
  | "emailClient"
  | "lineItems"
  | "clientTaxScheme"
  | "clientIsBusiness"
  | "clientPostalAddress"
  | "language"
>;

/** The quote lifetime a new fiat-priced invoice starts with (the API's default). */

const LINE_TAX_CELLS = new Set([
  "taxRate",
  "taxCategory",
  "exemptionReason",
  "exemptionReasonCode",
]);

/** Line items with every cell trimmed (the amounts' schema takes no spaces). */
function fromRows<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>, LineItemValues[]> {
  // Every cell trimmed; a blank tax cell is left out (the line takes the invoice's rate).
  const trim = (row: LineItemValues) =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([k, v]) => v !== undefined && (!LINE_TAX_CELLS.has(k) || v.trim() !== ""))
        .map(([k, v]) => [k, (v as string).trim()]),
    );
  return z.preprocess((rows: LineItemValues[]) => rows.map(trim), schema);
}

const TEXT_KEYS: readonly TextKey[] = [
  ...INVOICE_TEXT_KEYS,
  "invoiceNumber",
  "taxRate",
  "discount",
  "paymentTolerance",
  "dueDate",
];

type Shape = typeof createInvoiceSchema.shape | typeof updateInvoiceSchema.shape;

function formSchema(shape: Shape, overrides: Partial<Record<TextKey, z.ZodType>>) {
  const text = Object.fromEntries(
    TEXT_KEYS.map((key): [TextKey, z.ZodType<unknown, string>] => [
      key,
      fromTextBox(overrides[key] ?? shape[key]),
    ]),
  ) as Record<TextKey, z.ZodType<unknown, string>>;
  // The memo rule (lib/domain/invoice-number.ts) on top of the schema's length bound.
  const invoiceNumber = shape.invoiceNumber.refine(
    (v) => v === undefined || isValidInvoiceNumber(v),
    INVALID_INVOICE_NUMBER_MESSAGE,
  );
  return z.object({
    ...text,
    invoiceNumber: fromTextBox(invoiceNumber),
    currency: shape.currency.unwrap(),
    // "" (the asset itself) is null: an edit clears a fiat price.
    priceCurrency: fromInput(
      shape.priceCurrency,
      (v: InvoiceFormValues["priceCurrency"]) => v || null,
    ),
    // Whole minutes as typed; blank is the API's default.
    quoteTtlMinutes: fromInput(shape.quoteTtlMinutes, (v: string) =>
      v.trim() === "" ? undefined : Number(v.trim()),
    ),
    network: shape.network.unwrap(),
    emailClient: createInvoiceSchema.shape.emailClient.unwrap(),
    // "" (no scheme) is null; an unchecked box says nothing (null), so a saved client's stays.
    clientTaxScheme: fromInput(
      shape.clientTaxScheme,
      (v: InvoiceFormValues["clientTaxScheme"]) => v || null,
    ),
    clientIsBusiness: fromInput(shape.clientIsBusiness, (v: boolean) => (v ? true : null)),
    clientPostalAddress: addressFromForm(shape.clientPostalAddress),
    // "" leaves the language to the defaults (left out of the body).
    language: fromInput(shape.language, (v: InvoiceFormValues["language"]) => v || undefined),
    // "-3, 0, 7" as typed; blank is null (the profile's default reminders).
    reminders: fromInput(shape.reminders, (v: string) =>
      v.trim() === ""
        ? null
        : v.split(",").map((part) => (/^\s*[+-]?\d+\s*$/.test(part) ? Number(part) : part)),
    ),
    lineItems: fromRows(shape.lineItems.unwrap()),
    // The create schema's; an edit never sends them (requestBody).
    saveClient: createInvoiceSchema.shape.saveClient.unwrap(),
    favoriteClient: createInvoiceSchema.shape.favoriteClient.unwrap(),
  });
}

const create = createInvoiceSchema.shape;
const update = updateInvoiceSchema.shape;

/** New invoice: the create schema's rules (the form types the client: name and email required). */
export const createFormSchema = formSchema(create, requiredClientFields);

/** Editing a draft: the update schema's rules, with the title required (it has one already). */
export const updateFormSchema = formSchema(update, { title: update.title.unwrap() });

export type InvoiceFormOutput = z.output<typeof createFormSchema>;

/** The rules for a new invoice or for an edit, typed on the form's own values. */
export function invoiceFormSchema(
  editing: boolean,
): z.ZodType<InvoiceFormOutput, InvoiceFormValues> {
  return editing ? updateFormSchema : createFormSchema;
}

/** The form's starting values: blank for a new invoice, the draft's own for an edit. */
export function initialValues(
  invoice: DraftInvoice | undefined,
  network: NetworkName,
): InvoiceFormValues {
  const text = (v: string | null | undefined) => v ?? "";
  const decimal = (v: string | undefined) => (v && !isZero(v) ? trimZeros(v) : "");
  const texts = Object.fromEntries(
    INVOICE_TEXT_KEYS.map((key) => [key, text(invoice?.[key])]),
  ) as Record<InvoiceTextField, string>;
  return {
    ...texts,
    invoiceNumber: text(invoice?.invoiceNumber),
    currency: invoice?.currency ?? "USDC",
    priceCurrency: invoice?.priceCurrency ?? "",
    quoteTtlMinutes: String(invoice?.quoteTtlMinutes ?? DEFAULT_QUOTE_TTL_MINUTES),
    network: invoice ? networkOf(invoice.networkPassphrase) : network,
    taxRate: decimal(invoice?.taxRate),
    discount: decimal(invoice?.discount),
    paymentTolerance: decimal(invoice?.paymentTolerance),
    dueDate: invoice?.dueDate ? invoice.dueDate.slice(0, 10) : "",
    saveClient: false,
    favoriteClient: false,
    emailClient: invoice?.emailClient ?? true,
    clientTaxScheme: invoice?.clientTaxScheme ?? "",
    clientIsBusiness: invoice?.clientIsBusiness ?? false,
    clientPostalAddress: addressBoxes(invoice?.clientPostalAddress),
    language: invoice?.language ?? "",
    reminders: Array.isArray(invoice?.reminders) ? invoice.reminders.join(", ") : "",
    lineItems: invoice?.lineItems.length
      ? invoice.lineItems.map((i) => ({
          description: i.description,
          quantity: trimZeros(i.quantity),
          rate: trimZeros(i.rate),
          ...(i.taxRate == null ? {} : { taxRate: trimZeros(i.taxRate) }),
          ...(i.taxCategory == null ? {} : { taxCategory: i.taxCategory }),
          ...(i.exemptionReason == null ? {} : { exemptionReason: i.exemptionReason }),
          ...(i.exemptionReasonCode == null ? {} : { exemptionReasonCode: i.exemptionReasonCode }),
        }))
      : [{ description: "", quantity: "1", rate: "" }],
  };
}

const day = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : null);

/**
 * The POST or PATCH body from the validated values. An edit resends neither an unchanged
 * invoice number nor an unchanged due date (an old draft's date may already be past).
 */
export function requestBody(
  values: Partial<InvoiceFormOutput>,
  invoice?: DraftInvoice,
): Record<string, unknown> {
  const { invoiceNumber, dueDate, saveClient, favoriteClient, quoteTtlMinutes, ...rest } = values;
  const body: Record<string, unknown> = { ...rest };
  // A quote lifetime means something only for a fiat price.
  if (values.priceCurrency && quoteTtlMinutes !== undefined) {
    body.quoteTtlMinutes = quoteTtlMinutes;
  }
  if (!invoice && !values.priceCurrency) delete body.priceCurrency;
  if (invoiceNumber !== undefined && invoiceNumber !== invoice?.invoiceNumber) {
    body.invoiceNumber = invoiceNumber;
  }
  const due = day(dueDate as Date | null | undefined);
  if (!invoice) {
    if (due) body.dueDate = due;
    body.saveClient = saveClient;
    body.favoriteClient = saveClient && favoriteClient;
  } else if (due !== (invoice.dueDate?.slice(0, 10) ?? null)) {
    body.dueDate = due;
  }
  return body;
}

const FIELD_LABELS: Record<string, string> = {
  quantity: "Quantity",
  rate: "Rate",
  amount: "Amount",
  taxRate: "Tax rate",
  discount: "Discount",
  paymentTolerance: "Payment tolerance",
  subtotal: "Subtotal",
  total: "Total",
  lineItems: "Line items",
  quoteTtlMinutes: "Quote lifetime",
  priceCurrency: "Price currency",
  reminders: "Reminders",
};

/**
 * "lineItems.0.rate must not be negative" -> "Rate must not be negative"; a schema's
 * "value must be ..." gets the field's name too.
 */
export function readable(message: string, field?: string): string {
  return message.replace(/^([\w.]+)(?= )/, (path) => {
    const named = path === "value" && field ? field : path;
    return FIELD_LABELS[named.split(".").pop() ?? named] ?? FIELD_LABELS[path] ?? path;
  });
}

export type LiveTotals =
  | { ok: true; totals: InvoiceTotals }
  | { ok: false; message: string; details: Record<string, string> };

/**
 * The service's computeTotals on what is typed: what is shown is what will be stored. A
 * fiat-priced invoice's amounts have 2 decimals (docs/decisions.md, Fiat pricing).
 */
export function liveTotals(
  lineItems: readonly LineItemValues[],
  taxRate: string,
  discount: string,
  priceCurrency: string = "",
): LiveTotals {
  const given = (s: string) => (s.trim() === "" ? null : s.trim());
  try {
    const items = lineItems.map((r) => ({
      quantity: r.quantity.trim(),
      rate: r.rate.trim(),
      taxRate: given(r.taxRate ?? ""),
      taxCategory: (given(r.taxCategory ?? "") as TaxCategory | null) ?? null,
      exemptionReason: given(r.exemptionReason ?? ""),
      exemptionReasonCode: given(r.exemptionReasonCode ?? ""),
    }));
    return {
      ok: true,
      totals: computeInvoiceTotals(
        { lineItems: items, taxRate: given(taxRate), discount: given(discount) },
        { scale: priceCurrency ? FIAT_SCALE : AMOUNT_SCALE },
      ),
    };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { ok: false, message: readable(err.message), details: err.details ?? {} };
  }
}
