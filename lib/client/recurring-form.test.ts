import { describe, expect, it } from "vitest";
import { createRecurringSchema, type RecurringBody } from "@/lib/schemas/recurring";
import { NETWORK_PASSPHRASES } from "@/lib/stellar/networks";
import { createFormSchema } from "./invoice-form";
import { scheduleBody, scheduleFormSchema, templateBody, templateValues } from "./recurring-form";

// The recurring form's glue (lib/client/recurring-form.ts): a stored template shown in the
// invoice form's boxes and read back gives the same template, which the API's own schema takes.

const stored = (template: Record<string, unknown>): RecurringBody => ({
  id: "c".repeat(25),
  template,
  networkPassphrase: NETWORK_PASSPHRASES.testnet,
  interval: "month",
  intervalCount: 1,
  startDate: "2027-01-31",
  endDate: null,
  count: 12,
  dueInDays: 14,
  autoSend: true,
  status: "active",
  nextPeriod: 1,
  nextDate: "2027-02-28",
  invoicesCreated: 1,
  lastRefusal: null,
  pausedAt: null,
  createdAt: "2027-01-01T00:00:00.000Z",
  updatedAt: "2027-01-01T00:00:00.000Z",
});

const template = {
  clientId: "k".repeat(25),
  title: "Retainer",
  currency: "USDC",
  priceCurrency: "EUR",
  quoteTtlMinutes: 30,
  taxRate: "8.5",
  discount: "25",
  lineItems: [
    { description: "Retainer", quantity: "1", rate: "1200" },
    { description: "Hosting", quantity: "2", rate: "12.50" },
  ],
};

describe("recurring form", () => {
  it("a stored template (saved client, lines, tax, EUR) round-trips through the invoice form's boxes", () => {
    const { values, clientId } = templateValues(stored(template));
    expect(clientId).toBe(template.clientId);
    expect(values.lineItems).toEqual([
      { description: "Retainer", quantity: "1", rate: "1200" },
      { description: "Hosting", quantity: "2", rate: "12.50" },
    ]);
    // The linked client's details are shown in the boxes (filled from the saved client).
    const shown = { ...values, clientName: "Erin", clientEmail: "erin@example.com" };
    const body = templateBody(createFormSchema.parse(shown), clientId);
    expect(body).toMatchObject(template);
    expect(body).not.toHaveProperty("clientName");
    expect(body).not.toHaveProperty("dueDate");
    expect(body).not.toHaveProperty("saveClient");
    const schedule = scheduleBody(
      scheduleFormSchema.parse({
        interval: "month",
        intervalCount: "1",
        startDate: "2099-01-01",
        count: "",
        dueInDays: "14",
        autoSend: true,
      }),
    );
    expect(createRecurringSchema.safeParse({ template: body, ...schedule }).success).toBe(true);
  });

  it("typed client details are sent when no saved client is linked", () => {
    const { values } = templateValues(stored({ ...template, clientId: undefined }));
    const typed = { ...values, clientName: "Ada", clientEmail: "ada@example.com" };
    expect(templateBody(createFormSchema.parse(typed), null)).toMatchObject({
      clientName: "Ada",
      clientEmail: "ada@example.com",
    });
  });

  it("an edit sends the anchor and the count only when they changed", () => {
    const existing = stored(template);
    const same = scheduleFormSchema.parse({
      interval: "month",
      intervalCount: "1",
      startDate: "2027-01-31",
      count: "12",
      dueInDays: "30",
      autoSend: false,
    });
    expect(scheduleBody(same, existing)).toEqual({ dueInDays: 30, autoSend: false });
    expect(scheduleBody({ ...same, count: undefined }, existing)).toEqual({
      count: null,
      dueInDays: 30,
      autoSend: false,
    });
  });
});
