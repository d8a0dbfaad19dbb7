import { describe, expect, it } from "vitest";
import { BusinessRuleError } from "@/lib/domain/errors";
import { creation, EVENT_TYPES, transition } from "@/lib/domain/invoice-state";
import { QUOTE_EVENT_TYPES } from "@/lib/domain/quote-state";
import type { EventPayload } from "@/lib/schemas/events";
import { eventData } from "@/lib/services/events/outbox";
import { applyTransition, plannedRecords, rowChanges, SYSTEM_ACTOR } from "./lifecycle";
import type { InvoiceRow, PaymentRow } from "./store";

const at = new Date("2026-03-16T00:00:05.000Z");
const wallet = `G${"A".repeat(55)}`;
const payer = `G${"B".repeat(55)}`;

function invoice(over: Partial<InvoiceRow> = {}): InvoiceRow {
  return {
    id: "inv1aaaaaaaaaaaaaaaaaaaa",
    kind: "INVOICE",
    invoiceNumber: "INV-0007",
    status: "PENDING",
    freelancerWallet: wallet,
    freelancerName: null,
    freelancerEmail: null,
    freelancerCompany: null,
    clientName: "Client",
    clientEmail: "client@example.com",
    clientCompany: null,
    clientAddress: null,
    clientWallet: null,
    clientTaxId: null,
    clientTaxScheme: null,
    clientPostalAddress: null,
    clientIsBusiness: null,
    taxBreakdown: null,
    title: "Invoice INV-0007",
    description: null,
    notes: null,
    paymentTerms: null,
    language: "en",
    buyerReference: null,
    supplyDate: null,
    periodStart: null,
    periodEnd: null,
    taxCurrency: null,
    taxExchangeRate: null,
    taxRateSource: null,
    taxRateAt: null,
    subtotal: "100.0000000",
    taxRate: "0.00",
    taxAmount: "0.0000000",
    discount: "0.0000000",
    total: "100.0000000",
    amountPaid: "0",
    amountCredited: "0",
    paymentTolerance: "0.00",
    currency: "XLM",
    priceCurrency: null,
    quoteTtlMinutes: 15,
    networkPassphrase: "Test SDF Network ; September 2015",
    muxedId: "4611686018427387904",
    dueDate: new Date("2026-03-15T00:00:00.000Z"),
    sentAt: null,
    paidAt: null,
    cancelledAt: null,
    expiredAt: null,
    transactionHash: null,
    ledgerNumber: null,
    payerWallet: null,
    linkReference: null,
    linkExpiresAt: null,
    activateNewAccounts: false,
    linkReusable: false,
    linkMaxPayments: null,
    linkOpenAmount: false,
    linkMinAmount: null,
    parentLinkId: null,
    linkHeldUntil: null,
    linkDeactivatedAt: null,
    emailClient: true,
    reminders: null,
    remindersStoppedAt: null,
    recurringId: null,
    recurringPeriod: null,
    quoteId: null,
    searchText: null,
    createdAt: new Date("2026-03-01T00:00:00.000Z"),
    updatedAt: new Date("2026-03-01T00:00:00.000Z"),
    deletedAt: null,
    ...over,
  };
}

describe("rowChanges", () => {
  it("writes the status, the trigger's stamp and updatedAt", () => {
    expect(rowChanges("expire", transition("PENDING", "expire"), { at })).toEqual({
      status: "EXPIRED",
      expiredAt: at,
      updatedAt: at,
    });
  });

  it("lets the caller's columns override the stamp (a payment's ledger time)", () => {
    const paidAt = new Date("2026-03-15T12:00:00.000Z");
    expect(
      rowChanges("pay", transition("PROCESSING", "pay"), {
        at,
        set: { paidAt, payerWallet: payer },
      }),
    ).toEqual({ status: "PAID", paidAt, payerWallet: payer, updatedAt: at });
  });
});

describe("plannedRecords", () => {
  it("records a status change in changes.status beside the caller's changes", () => {
    const row = invoice({ status: "FAILED" });
    const planned = plannedRecords(row, transition("PROCESSING", "submitFailed"), {
      actor: SYSTEM_ACTOR,
      at,
      changes: { ledgerCode: "op_underfunded", transactionHash: "h" },
    });
    expect(planned).toEqual({
      audit: {
        action: "FAILED",
        changes: {
          status: { from: "PROCESSING", to: "FAILED" },
          ledgerCode: "op_underfunded",
          transactionHash: "h",
        },
      },
      events: [],
    });
  });

  it("an edit keeps the status out of changes", () => {
    const planned = plannedRecords(invoice({ status: "DRAFT" }), transition("DRAFT", "update"), {
      actor: wallet,
      at,
      changes: { title: { from: "a", to: "b" } },
    });
    expect(planned.audit).toEqual({
      action: "UPDATED",
      changes: { title: { from: "a", to: "b" } },
    });
  });

  it("builds the expired event of an invoice, and none for a link", () => {
    const move = transition("PENDING", "expire");
    const row = invoice({ status: "EXPIRED", expiredAt: at });
    expect(plannedRecords(row, move, { actor: SYSTEM_ACTOR, at }).events).toEqual([
      {
        type: "invoice.expired",
        data: {
          id: row.id,
          invoiceNumber: "INV-0007",
          status: "EXPIRED",
          previousStatus: "PENDING",
          dueDate: "2026-03-15T00:00:00.000Z",
          expiredAt: at.toISOString(),
        },
      },
    ]);
    const link = invoice({ kind: "LINK", status: "EXPIRED" });
    expect(plannedRecords(link, move, { actor: SYSTEM_ACTOR, at })).toMatchObject({
      audit: { action: "EXPIRED" },
      events: [],
    });
  });

  it("a paid link writes invoice.paid, payment.confirmed and link.paid from the row and payment", () => {
    const paidAt = new Date("2026-03-15T12:00:00.000Z");
    const row = invoice({
      kind: "LINK",
      status: "PAID",
      linkReference: "order-1",
      transactionHash: "f".repeat(64),
      ledgerNumber: 42,
      payerWallet: payer,
      paidAt,
      amountPaid: "100.0000000",
    });
    const payment: PaymentRow = {
      id: "pay1aaaaaaaaaaaaaaaaaaaa",
      invoiceId: row.id,
      transactionHash: "f".repeat(64),
      ledgerNumber: 42,
      fromWallet: payer,
      toWallet: wallet,
      amount: "100.0000000",
      asset: "XLM",
      applied: true,
      status: "CONFIRMED",
      confirmedAt: paidAt,
    } as PaymentRow;
    const planned = plannedRecords(row, transition("PENDING", "pay"), {
      actor: payer,
      at,
      payments: [payment],
    });
    expect(planned.events.map((e) => e.type)).toEqual([
      "invoice.paid",
      "payment.confirmed",
      "link.paid",
    ]);
    expect(planned.events[0].data).toEqual({
      id: row.id,
      invoiceNumber: "INV-0007",
      status: "PAID",
      previousStatus: "PENDING",
      total: "100.0000000",
      currency: "XLM",
      priceCurrency: null,
      transactionHash: "f".repeat(64),
      ledgerNumber: 42,
      payerWallet: payer,
      paidAt: paidAt.toISOString(),
    });
    expect(planned.events[1].data).toMatchObject({
      id: payment.id,
      invoiceId: row.id,
      applied: true,
      amountPaid: "100.0000000",
      amountDue: "0.0000000",
    });
    expect(planned.events[2].data).toEqual({
      id: row.id,
      amount: "100.0000000",
      asset: "XLM",
      priceCurrency: null,
      transactionHash: "f".repeat(64),
      metadata: { reference: "order-1" },
      paidAt: paidAt.toISOString(),
    });
  });

  it("a received payment keeps the status: PAYMENT_RECEIVED and one event per row", () => {
    const row = invoice({ status: "PENDING", amountPaid: "10.0000000" });
    const base = {
      invoiceId: row.id,
      transactionHash: "e".repeat(64),
      ledgerNumber: 7,
      fromWallet: payer,
      toWallet: wallet,
      status: "CONFIRMED",
      confirmedAt: at,
    } as const;
    const applied = { ...base, id: "pay1", amount: "10.0000000", asset: "XLM", applied: true };
    const wrong = {
      ...base,
      id: "pay2",
      amount: "5.0000000",
      asset: "USDC",
      assetIssuer: payer,
      applied: false,
      unappliedReason: "wrong_asset",
    };
    const planned = plannedRecords(row, transition("PENDING", "receive"), {
      actor: payer,
      at,
      changes: { transactionHash: "e".repeat(64) },
      payments: [applied, wrong] as PaymentRow[],
    });
    expect(planned.audit).toEqual({
      action: "PAYMENT_RECEIVED",
      changes: { transactionHash: "e".repeat(64) },
    });
    expect(planned.events.map((e) => e.type)).toEqual(["payment.confirmed", "payment.unapplied"]);
    expect(planned.events[0].data).toMatchObject({ applied: true, amountDue: "90.0000000" });
    expect(planned.events[1].data).toMatchObject({
      id: "pay2",
      applied: false,
      reason: "wrong_asset",
      asset: "USDC",
      assetIssuer: payer,
    });
  });

  it("creation records the first status from null", () => {
    const row = invoice({ status: "DRAFT" });
    const planned = plannedRecords(row, creation("INVOICE"), { actor: wallet, at });
    expect(planned.audit).toEqual({
      action: "CREATED",
      changes: { status: { from: null, to: "DRAFT" } },
    });
    expect(planned.events.map((e) => e.type)).toEqual(["invoice.created"]);
  });
});

describe("applyTransition", () => {
  // A database that fails the test if it is touched.
  const untouchable = new Proxy({} as never, {
    get: () => {
      throw new Error("the database was used");
    },
  });

  it("refuses a forbidden move before touching the database", async () => {
    await expect(
      applyTransition(untouchable, invoice({ status: "PAID" }), "cancel", { actor: wallet, at }),
    ).rejects.toBeInstanceOf(BusinessRuleError);
  });

  it("writes nothing for a move the table records nothing for", async () => {
    const row = invoice({ status: "PAID" });
    const opts = { actor: SYSTEM_ACTOR, at };
    expect(await applyTransition(untouchable, row, "expire", opts)).toBe(row);
    const processing = invoice({ status: "PROCESSING" });
    expect(await applyTransition(untouchable, processing, "payIntent", opts)).toBe(processing);
  });
});

describe("event data and the outbox", () => {
  const hash = "f".repeat(64);
  const paidAt = new Date("2026-03-15T12:00:00.000Z");

  function paymentRow(over: Partial<PaymentRow> = {}): PaymentRow {
    return {
      id: "pay1aaaaaaaaaaaaaaaaaaaa",
      invoiceId: "inv1aaaaaaaaaaaaaaaaaaaa",
      transactionHash: hash,
      ledgerNumber: 42,
      fromWallet: payer,
      toWallet: wallet,
      amount: "100.0000000",
      operationIndex: 0,
      asset: "XLM",
      assetIssuer: null,
      applied: true,
      unappliedReason: null,
      amountRefunded: "0",
      status: "CONFIRMED",
      confirmedAt: paidAt,
      fiatCurrency: null,
      fiatValue: null,
      rate: null,
      rateSource: null,
      rateAt: null,
      priceValue: null,
      priceRate: null,
      quoteId: null,
      paidLate: false,
      method: "stellar",
      reference: null,
      ...over,
    } as PaymentRow;
  }

  /** One move of each kind that writes events, built from rows as the services leave them. */
  function everyMove(): EventPayload[] {
    const paid = {
      status: "PAID" as const,
      transactionHash: hash,
      ledgerNumber: 42,
      payerWallet: payer,
      paidAt,
      amountPaid: "100.0000000",
    };
    const link = {
      kind: "LINK" as const,
      linkReference: "order-1",
      linkExpiresAt: new Date("2026-04-01T00:00:00.000Z"),
    };
    const checkoutUrl = "https://invoices.example.com/pay/inv1aaaaaaaaaaaaaaaaaaaa";
    const wrong = paymentRow({
      id: "pay2aaaaaaaaaaaaaaaaaaaa",
      asset: "USDC",
      assetIssuer: payer,
      applied: false,
      unappliedReason: "wrong_asset",
    });
    const manual = paymentRow({
      id: "pay3aaaaaaaaaaaaaaaaaaaa",
      transactionHash: null,
      ledgerNumber: null,
      fromWallet: null,
      method: "bank_transfer",
      reference: "SEPA 2026-114",
    });
    return [
      plannedRecords(
        invoice({ status: "DRAFT", recurringId: "rec1aaaaaaaaaaaaaaaaaaaa" }),
        creation("INVOICE"),
        {
          actor: wallet,
          at,
        },
      ),
      plannedRecords(invoice({ ...link, status: "PENDING" }), creation("LINK"), {
        actor: wallet,
        at,
        checkoutUrl,
      }),
      plannedRecords(invoice({ status: "PENDING" }), transition("DRAFT", "send"), {
        actor: wallet,
        at,
      }),
      plannedRecords(
        invoice({ status: "PENDING", amountCredited: "40.0000000" }),
        transition("PENDING", "credit"),
        {
          actor: wallet,
          at,
          creditNote: {
            id: "cn1aaaaaaaaaaaaaaaaaaaaa",
            number: "CN-0001",
            reason: "One day not worked",
            subtotal: "40.0000000",
            taxAmount: "0.0000000",
            total: "40.0000000",
            unit: "XLM",
            refundId: null,
            createdAt: at,
          },
        },
      ),
      plannedRecords(invoice(paid), transition("PENDING", "pay"), {
        actor: payer,
        at,
        payments: [paymentRow(), wrong],
      }),
      plannedRecords(
        invoice({ ...link, ...paid, parentLinkId: "lnk1aaaaaaaaaaaaaaaaaaaa" }),
        transition("PENDING", "pay"),
        { actor: payer, at, payments: [paymentRow()] },
      ),
      plannedRecords(invoice({ status: "EXPIRED" }), transition("PENDING", "expire"), {
        actor: SYSTEM_ACTOR,
        at,
      }),
      plannedRecords(invoice({ status: "CANCELLED" }), transition("PENDING", "cancel"), {
        actor: wallet,
        at,
        reason: "Duplicate",
      }),
      plannedRecords(invoice({ ...paid, amountPaid: "60.0000000" }), transition("PAID", "refund"), {
        actor: wallet,
        at,
        payment: paymentRow({ amountRefunded: "40.0000000" }),
        refund: {
          id: "ref1aaaaaaaaaaaaaaaaaaaa",
          amount: "40.0000000",
          destination: payer,
          memo: "RF-k9p0000abcd",
          transactionHash: "e".repeat(64),
          ledgerNumber: 50,
          confirmedAt: at.toISOString(),
        },
      }),
      // A payment received outside Stellar completing the invoice: no hash, ledger or payer.
      plannedRecords(
        invoice({ ...paid, transactionHash: null, ledgerNumber: null, payerWallet: null }),
        transition("PENDING", "pay"),
        { actor: wallet, at, payments: [manual] },
      ),
      plannedRecords(
        invoice({ status: "PENDING", amountPaid: "0.0000000" }),
        transition("PENDING", "voidPayment"),
        { actor: wallet, at, payment: { ...manual, status: "VOIDED", applied: false } },
      ),
    ].flatMap((p) => p.events);
  }

  it("every builder's output is accepted by the outbox unchanged (same fields, same strings)", () => {
    const built = everyMove();
    // The quote events are built by quote moves (lib/services/quotes/lifecycle.test.ts).
    const invoiceEvents = EVENT_TYPES.filter(
      (t) => !(QUOTE_EVENT_TYPES as readonly string[]).includes(t),
    );
    expect(new Set(built.map((e) => e.type))).toEqual(new Set(invoiceEvents));
    for (const event of built) {
      // Parsing neither adds, drops nor reformats anything: amounts stay decimal strings.
      expect(eventData(event), event.type).toStrictEqual(event.data);
    }
    const paid = built.find((e) => e.type === "link.paid");
    expect(paid?.data).toMatchObject({
      parentLinkId: "lnk1aaaaaaaaaaaaaaaaaaaa",
      amount: "100.0000000",
    });
  });

  it("invoice.cancelled names the owner's wallet when an API key cancels, as documented", () => {
    const planned = plannedRecords(
      invoice({ status: "CANCELLED" }),
      transition("PENDING", "cancel"),
      { actor: "key:sk_test_Q3x9Lm2a", at, reason: null },
    );
    const [event] = planned.events;
    expect(event.type).toBe("invoice.cancelled");
    expect(event.data).toMatchObject({ cancelledBy: wallet });
    expect(() => eventData(event)).not.toThrow();
  });

  it("a row missing what its event requires fails the move at the outbox", async () => {
    // A PAID invoice without its time paid: the builder passes the null on ...
    const row = invoice({
      status: "PAID",
      transactionHash: hash,
      ledgerNumber: 42,
      payerWallet: payer,
      paidAt: null,
    });
    const planned = plannedRecords(row, transition("PENDING", "pay"), {
      actor: payer,
      at,
      payments: [paymentRow()],
    });
    const [paidEvent] = planned.events;
    // ... and the outbox refuses it, naming the field.
    expect(() => eventData(paidEvent)).toThrow(/invoice\.paid data[\s\S]*paidAt/);
  });
});
