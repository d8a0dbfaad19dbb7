import { describe, expect, it } from "vitest";
import {
  createFormSchema,
  type InvoiceFormValues,
  initialValues,
  liveTotals,
  readable,
  requestBody,
  updateFormSchema,
} from "./invoice-form";

const values = (patch: Partial<InvoiceFormValues> = {}): InvoiceFormValues => ({
  ...initialValues(undefined, "testnet"),
  clientName: "Ada Lovelace",
  clientEmail: " ada@example.com ",
  currency: "XLM",
  dueDate: "2099-12-31",
  taxRate: "10",
  discount: "1.1",
  lineItems: [
    { description: "Design", quantity: "2", rate: "150.5 " },
    { description: "Build", quantity: "1", rate: "700" },
  ],
  ...patch,
});

/** The failed fields of a parse, keyed like the API's `details`. */
function errors(schema: typeof createFormSchema | typeof updateFormSchema, v: InvoiceFormValues) {
  const r = schema.safeParse(v);
  return r.success
    ? {}
    : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
}

describe("invoice form rules (the API's request schemas on the form's text)", () => {
  it("a complete new invoice becomes the POST body: trimmed, blanks left out, the due date as a day", () => {
    const parsed = createFormSchema.parse(values());
    const body = requestBody(parsed);
    expect(body).toMatchObject({
      clientName: "Ada Lovelace",
      clientEmail: "ada@example.com",
      currency: "XLM",
      network: "testnet",
      taxRate: "10",
      discount: "1.1",
      dueDate: "2099-12-31",
      saveClient: false,
      favoriteClient: false,
      lineItems: [
        { description: "Design", quantity: "2", rate: "150.5" },
        { description: "Build", quantity: "1", rate: "700" },
      ],
    });
    // Absent from the JSON (undefined is not serialised).
    expect(body.title).toBeUndefined();
    expect(body.invoiceNumber).toBeUndefined();
    expect(body.clientCompany).toBeNull();
  });

  it("emails the client by default; reminders typed as days become the API's list, blank the profile's", () => {
    const plain = requestBody(createFormSchema.parse(values()));
    expect(plain).toMatchObject({ emailClient: true, reminders: null });
    const typed = requestBody(
      createFormSchema.parse(values({ emailClient: false, reminders: " -3, 0 ,7 " })),
    );
    expect(typed).toMatchObject({ emailClient: false, reminders: [-3, 0, 7] });
    expect(errors(createFormSchema, values({ reminders: "-3, soon" }))).toHaveProperty(
      "reminders.1",
    );
    expect(errors(createFormSchema, values({ reminders: "0, 0" }))).toHaveProperty("reminders");
    expect(errors(createFormSchema, values({ reminders: "90" }))).toHaveProperty("reminders.0");
    const draft = { ...initialValues(undefined, "testnet") };
    expect(draft.emailClient).toBe(true);
  });

  it("refuses what the API refuses, with the API's messages", () => {
    const bad = errors(
      createFormSchema,
      values({
        clientName: " ",
        clientEmail: "not-an-email",
        taxRate: "101",
        invoiceNumber: "X-1",
        lineItems: [{ description: "", quantity: "0", rate: "1" }],
      }),
    );
    expect(bad.clientName).toBe("Client name is required");
    expect(bad.clientEmail).toBe("Invalid email");
    expect(bad.taxRate).toMatch(/at most 100/);
    expect(bad.invoiceNumber).toMatch(/^invoiceNumber must be INV-/);
    expect(bad["lineItems.0.description"]).toBe("Description is required");
    expect(readable(bad["lineItems.0.quantity"], "lineItems.0.quantity")).toBe(
      "Quantity must be greater than 0",
    );
    expect(errors(createFormSchema, values({ lineItems: [] })).lineItems).toBe(
      "At least one line item is required",
    );
  });

  it("an edit keeps the title required and resends neither an unchanged number nor due date", () => {
    expect(errors(updateFormSchema, values({ title: "" })).title).toBeDefined();
    const invoice = {
      invoiceNumber: "INV-0007",
      dueDate: "2099-12-31T00:00:00.000Z",
    } as Parameters<typeof requestBody>[1];
    const same = requestBody(
      updateFormSchema.parse(values({ title: "Site", invoiceNumber: "INV-0007" })),
      invoice,
    );
    expect(same.invoiceNumber).toBeUndefined();
    expect(same).not.toHaveProperty("dueDate");
    expect(same.saveClient).toBeUndefined();
    const cleared = requestBody(
      updateFormSchema.parse(values({ title: "Site", dueDate: "", notes: "" })),
      invoice,
    );
    expect(cleared.dueDate).toBeNull();
    expect(cleared.notes).toBeNull();
  });

  it("the payment tolerance follows the API's rule: optional, 0 to 5, 2 decimals", () => {
    // Left blank it is sent as null: the default (0), and an edit clears it.
    expect(requestBody(createFormSchema.parse(values())).paymentTolerance).toBeNull();
    const body = requestBody(createFormSchema.parse(values({ paymentTolerance: " 1.5 " })));
    expect(Number(body.paymentTolerance)).toBe(1.5);
    for (const bad of ["5.01", "-1", "0.125", "x"]) {
      const message = errors(createFormSchema, values({ paymentTolerance: bad })).paymentTolerance;
      expect(message, bad).toBeDefined();
      expect(readable(message, "paymentTolerance"), bad).toMatch(/^Payment tolerance /);
    }
    const edit = initialValues(
      { ...values(), paymentTolerance: "2.50" } as unknown as Parameters<typeof initialValues>[0],
      "testnet",
    );
    expect(edit.paymentTolerance).toBe("2.5");
  });

  it("live totals are the service's computeTotals: exact decimals", () => {
    const live = liveTotals(values().lineItems, "10", "1.1");
    expect(live.ok && live.totals.total).toBe("1100.0000000");
    const bad = liveTotals([{ description: "x", quantity: "-1", rate: "1" }], "", "");
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toBe("Quantity must be greater than 0");
  });

  it("a fiat price: USD or EUR with its quote lifetime; none sends neither", () => {
    const eur = requestBody(
      createFormSchema.parse(values({ priceCurrency: "EUR", quoteTtlMinutes: " 30 " })),
    );
    expect(eur).toMatchObject({ currency: "XLM", priceCurrency: "EUR", quoteTtlMinutes: 30 });
    const plain = requestBody(createFormSchema.parse(values({ quoteTtlMinutes: "30" })));
    expect(plain).not.toHaveProperty("priceCurrency");
    expect(plain).not.toHaveProperty("quoteTtlMinutes");
    // Blank is the API's default (15).
    const blank = requestBody(
      createFormSchema.parse(values({ priceCurrency: "USD", quoteTtlMinutes: "" })),
    );
    expect(blank.quoteTtlMinutes).toBeUndefined();
    // Editing a fiat draft back to the asset clears the price.
    const fiatDraft = {
      invoiceNumber: "INV-0008",
      dueDate: null,
      priceCurrency: "EUR",
    } as Parameters<typeof requestBody>[1];
    expect(requestBody(updateFormSchema.parse(values({ title: "T" })), fiatDraft)).toMatchObject({
      priceCurrency: null,
    });
    expect(initialValues(undefined, "testnet")).toMatchObject({
      priceCurrency: "",
      quoteTtlMinutes: "15",
    });
  });

  it("refuses a quote lifetime out of 1 to 120, or not whole, with the API's words", () => {
    for (const ttl of ["0", "121", "1.5", "ten"]) {
      const e = errors(createFormSchema, values({ priceCurrency: "EUR", quoteTtlMinutes: ttl }));
      expect(readable(e.quoteTtlMinutes ?? "")).toMatch(/^Quote lifetime must be/);
    }
  });

  it("totals of a fiat-priced invoice have 2 decimals, as the service stores them", () => {
    const rows = [{ description: "Work", quantity: "3", rate: "33.33" }];
    const live = liveTotals(rows, "7.5", "", "EUR");
    expect(live.ok && live.totals.total).toBe("107.4900000");
    const fine = liveTotals([{ description: "x", quantity: "1", rate: "1.005" }], "", "", "EUR");
    expect(fine.ok).toBe(false);
    expect(liveTotals([{ description: "x", quantity: "1", rate: "1.005" }], "", "").ok).toBe(true);
  });
});
