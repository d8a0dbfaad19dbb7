import { describe, expect, it } from "vitest";
import { INVOICE_STORED_KEYS, invoiceTemplateObject } from "./invoices";
import { createQuoteSchema, quoteInvoiceBodySchema, updateQuoteSchema } from "./quotes";
import { recurringTemplateSchema } from "./recurring";

// A quote's body is the invoice's template (docs/decisions.md, Quotes): one definition.
describe("quote schemas", () => {
  const body = {
    clientName: "Ada",
    clientEmail: "ada@example.com",
    title: "Website",
    notes: "n",
    paymentTerms: "Net 30",
    currency: "USDC",
    priceCurrency: "EUR",
    language: "de",
    lineItems: [{ description: "Design", quantity: "3", rate: "400", taxRate: "19" }],
    discount: "10",
  };

  it("takes every field of the invoice's template, and the quote's own", () => {
    const shape = createQuoteSchema.shape;
    for (const key of Object.keys(invoiceTemplateObject.shape)) expect(shape).toHaveProperty(key);
    for (const key of INVOICE_STORED_KEYS) expect(shape).toHaveProperty(key);
    expect(Object.keys(shape).sort()).toEqual(
      [...Object.keys(invoiceTemplateObject.shape), "validUntil", "onAccept"].sort(),
    );
    // The same template a recurring invoice has.
    expect(Object.keys(recurringTemplateSchema.shape).sort()).toEqual(
      Object.keys(invoiceTemplateObject.shape).sort(),
    );
  });

  it("a stored body parses to itself (the invoice is made from it on acceptance)", () => {
    const once = quoteInvoiceBodySchema.parse(body);
    expect(quoteInvoiceBodySchema.parse(once)).toEqual(once);
  });

  it("refuses what belongs to one issued invoice, and bad quote fields, by name", () => {
    const issues = (v: unknown) =>
      createQuoteSchema.safeParse(v).error?.issues.map((i) => i.path.join(".") || i.message);
    expect(issues({ ...body, dueDate: "2026-12-31" })?.join()).toContain("dueDate");
    expect(issues({ ...body, invoiceNumber: "INV-1" })?.join()).toContain("invoiceNumber");
    expect(issues({ ...body, validUntil: "2026-02-30" })).toEqual(["validUntil"]);
    expect(issues({ ...body, onAccept: "pay" })).toEqual(["onAccept"]);
    expect(issues({ ...body, clientName: undefined })).toEqual(["clientName"]);
    expect(updateQuoteSchema.safeParse({ validUntil: "2026-12-31" }).success).toBe(true);
    expect(
      updateQuoteSchema.safeParse({ lineItems: body.lineItems, items: body.lineItems }).success,
    ).toBe(false);
  });
});
