import { NotFoundError } from "@/lib/domain/errors";
import { Decimal } from "@/lib/domain/money";
import {
  type CreateInvoiceInput,
  INVOICE_STORED_KEYS,
  type InvoiceStoredField,
} from "@/lib/schemas/invoices";
import type { AuthedContext } from "../context";
import { createInvoice } from "./create-invoice";
import {
  assertOwner,
  getLiveInvoiceWithItems,
  INVOICE_NOT_FOUND,
  type InvoiceWithItems,
  type OwnerInvoice,
} from "./store";

/** A stored decimal as the create body takes it (no trailing zeros: "150.5", not "150.5000000"). */
const plain = (value: string) => new Decimal(value).toString();

/** The create body that makes a copy of `row`: same parties, lines and pricing, no dates or number. */
export function copyOf(row: InvoiceWithItems): CreateInvoiceInput {
  return {
    ...(Object.fromEntries(INVOICE_STORED_KEYS.map((key) => [key, row[key]])) as Pick<
      CreateInvoiceInput,
      InvoiceStoredField
    >),
    // A generated title names the old number: the copy gets its own.
    title: row.title === `Invoice ${row.invoiceNumber}` ? undefined : row.title,
    currency: row.currency,
    priceCurrency: row.priceCurrency,
    quoteTtlMinutes: row.quoteTtlMinutes,
    networkPassphrase: row.networkPassphrase as CreateInvoiceInput["networkPassphrase"],
    taxRate: plain(row.taxRate),
    discount: plain(row.discount),
    paymentTolerance: plain(row.paymentTolerance),
    reminders: row.reminders,
    lineItems: row.lineItems.map((item) => ({
      description: item.description,
      quantity: plain(item.quantity),
      rate: plain(item.rate),
      // A line's own tax, when it has one (docs/decisions.md, Tax per line).
      ...(item.taxRate == null ? {} : { taxRate: plain(item.taxRate) }),
      ...(item.taxCategory == null ? {} : { taxCategory: item.taxCategory }),
      ...(item.exemptionReason == null ? {} : { exemptionReason: item.exemptionReason }),
      ...(item.exemptionReasonCode == null
        ? {}
        : { exemptionReasonCode: item.exemptionReasonCode }),
    })),
  };
}

/**
 * "Duplicate" (docs/decisions.md, Recurring invoices): a new DRAFT with the invoice's parties,
 * lines and pricing, under the wallet's next number, without its due date, payments or
 * history. Any status may be copied; payment links are not invoices (404).
 */
export async function duplicateInvoice(ctx: AuthedContext, id: string): Promise<OwnerInvoice> {
  const row = await getLiveInvoiceWithItems(ctx.db, id);
  assertOwner(row, ctx);
  if (row.kind !== "INVOICE") throw new NotFoundError(INVOICE_NOT_FOUND);
  return createInvoice(ctx, copyOf(row));
}
