import { describe, expect, it } from "vitest";
import { initialValues, updateFormSchema } from "@/lib/client/invoice-form";
import { copyOf } from "@/lib/services/invoices/duplicate-invoice";
import { PDF_FIELDS } from "@/lib/services/invoices/pdf-render";
import {
  createInvoiceObject,
  INVOICE_TEXT_KEYS,
  invoiceParties,
  ownerInvoice,
  updateInvoiceSchema,
} from "./invoices";

// ARCHITECTURE.md, Add an invoice text field: one entry in INVOICE_TEXT_FIELDS reaches every
// place below. A field added by hand to one of them and not the list fails here.

const TEXT_PER_KEY: Record<string, string> = {
  ...Object.fromEntries(INVOICE_TEXT_KEYS.map((k) => [k, `value of ${k}`])),
  clientEmail: "ada@example.com",
  freelancerEmail: "me@example.com",
};

describe("an invoice text field is declared once", () => {
  it("the update body is the create body's fields, each optional", () => {
    // Less what only a create does: name a saved client, save the typed one.
    const createOnly = ["clientId", "saveClient", "favoriteClient"];
    const create = Object.keys(createInvoiceObject.shape).filter((k) => !createOnly.includes(k));
    expect(Object.keys(updateInvoiceSchema.shape)).toEqual(create);
    expect(updateInvoiceSchema.parse({})).toEqual({});
  });

  it.each(INVOICE_TEXT_KEYS)("%s: create, update, owner view, copy, form and PDF", (key) => {
    const value = TEXT_PER_KEY[key];
    expect(createInvoiceObject.shape[key]).toBeDefined();
    expect(updateInvoiceSchema.parse({ [key]: value })).toEqual({ [key]: value });
    expect(invoiceParties.shape[key]).toBeDefined();
    expect(ownerInvoice.b.shape[key]).toBeDefined();
    expect(ownerInvoice.a.shape[key]).toBeDefined();
    expect(PDF_FIELDS).toContain(key);

    const invoice: Record<string, unknown> = {
      ...TEXT_PER_KEY,
      invoiceNumber: "INV-0001",
      title: key === "title" ? value : "Website",
      currency: "XLM",
      priceCurrency: null,
      quoteTtlMinutes: 30,
      networkPassphrase: "Test SDF Network ; September 2015",
      taxRate: "0",
      discount: "0",
      paymentTolerance: "0",
      reminders: null,
      lineItems: [{ description: "Work", quantity: "1", rate: "10" }],
    };
    expect(copyOf(invoice as never)[key]).toBe(invoice[key]);

    const form = initialValues(
      { ...invoice, dueDate: null, emailClient: true } as never,
      "testnet",
    );
    expect(form[key]).toBe(invoice[key]);
    expect(updateFormSchema.parse(form)[key]).toBe(invoice[key]);
  });
});
