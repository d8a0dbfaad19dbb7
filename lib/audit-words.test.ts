import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "@/lib/domain/invoice-state";
import { actorWords, auditWords } from "./audit-words";

const ME = "GOWNERXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX";
const PAYER = "GABCDEFGHIJKLMNOPQRSTUVWXYZ234567ABCDEFGHIJKLMNOPQRSTXYZ";
const usdc = { currency: "USDC", priceCurrency: null };
const eur = { currency: "XLM", priceCurrency: "EUR" };

const say = (
  action: string,
  changes: Record<string, unknown> | null,
  ctx: Parameters<typeof auditWords>[1] = {},
  actorWallet = "SYSTEM",
) => auditWords({ action, actorWallet, changes }, { me: ME, pricing: usdc, ...ctx });

describe("audit entries in words (lib/audit-words.ts)", () => {
  it("CREATED: an invoice, a payment link, a link's checkout", () => {
    expect(say("CREATED", { status: { from: null, to: "DRAFT" } }).sentence).toBe(
      "Invoice created as a draft",
    );
    expect(say("CREATED", { status: { from: null, to: "PENDING" }, kind: "LINK" }).sentence).toBe(
      "Payment link created",
    );
    expect(
      say("CREATED", { status: { from: null, to: "PENDING" }, kind: "LINK", parentLinkId: "l1" })
        .sentence,
    ).toBe("Checkout opened from a payment link");
  });

  it("UPDATED by a pay-intent: payment started, with the quote when there is one", () => {
    const status = { from: "PENDING", to: "PROCESSING" };
    expect(say("UPDATED", { status }).sentence).toBe("Payment started");
    expect(say("UPDATED", { status, quote: { amount: "12.3000000", asset: "XLM" } }).sentence).toBe(
      "Payment started (quote 12.30 XLM)",
    );
    expect(say("UPDATED", { status, amount: "2040", asset: "USDC" }).sentence).toBe(
      "Payment started (2,040.00 USDC)",
    );
  });

  it("UPDATED by an edit: the fields in words, amounts grouped with their unit, dates in words", () => {
    const w = say(
      "UPDATED",
      {
        title: { from: "Logo", to: "Logo and icons" },
        dueDate: { from: "2026-12-01T00:00:00.000Z", to: "2026-12-15T00:00:00.000Z" },
        total: { from: "2040.0000000", to: "2500.0000000" },
        lineItems: { from: "[]", to: "[1]" },
      },
      {},
      ME,
    );
    expect(w.sentence).toBe("Invoice edited: title, due date, total and line items");
    expect(w.details).toEqual([
      "Title: Logo → Logo and icons",
      "Due date: 1 Dec 2026 → 15 Dec 2026",
      "Total: 2,040.00 USDC → 2,500.00 USDC",
      "Line items changed",
    ]);
    expect(w.actor).toBe("you");
  });

  it("SENT names where it went", () => {
    expect(
      say(
        "SENT",
        { status: { from: "DRAFT", to: "PENDING" } },
        { clientEmail: "client@example.com" },
      ).sentence,
    ).toBe("Invoice sent to client@example.com");
    expect(say("SENT", { status: { from: "DRAFT", to: "PENDING" } }).sentence).toBe("Invoice sent");
  });

  it("PAID and PAYMENT_RECEIVED: the amount applied in the invoice's unit", () => {
    expect(
      say("PAID", {
        status: { from: "PENDING", to: "PAID" },
        amount: "2040.0000000",
        amountPaid: "2040.0000000",
      }).sentence,
    ).toBe("Payment of 2,040.00 USDC received: invoice paid in full");
    expect(
      say(
        "PAYMENT_RECEIVED",
        { amount: "80.9950000", amountPaid: "80.9950000" },
        { pricing: eur },
        PAYER,
      ),
    ).toEqual({ sentence: "Payment of 81.00 EUR received", actor: "the client", details: [] });
  });

  it("a payment recorded by hand says how it came, and its void says so, by you", () => {
    expect(
      say(
        "PAYMENT_RECEIVED",
        { amount: "200.0000000", method: "bank_transfer", reference: "SEPA 114" },
        { pricing: eur },
        ME,
      ),
    ).toEqual({
      sentence: "Payment of 200.00 EUR received (bank transfer · ref SEPA 114)",
      actor: "you",
      details: [],
    });
    expect(
      say("PAYMENT_VOIDED", { amount: "200.0000000", method: "cash" }, { pricing: eur }, ME)
        .sentence,
    ).toBe("Payment of 200.00 EUR (cash) voided: no longer counted");
  });

  it("CREDITED: the credit note's number and amount", () => {
    expect(
      say(
        "CREDITED",
        { creditNote: { id: "cn1", number: "CN-0007", total: "116.1440000", unit: "EUR" } },
        { pricing: eur },
        ME,
      ).sentence,
    ).toBe("Credit note CN-0007 of 116.14 EUR issued");
  });

  it("PAYMENT_RECEIVED not applied: the amount in the asset sent, and why", () => {
    expect(
      say("PAYMENT_RECEIVED", {
        amount: "0",
        amountPaid: "100",
        reason: "already_paid",
        asset: "USDC",
        assetIssuer: "GISSUER",
        unappliedAmount: "50.0000000",
      }).sentence,
    ).toBe("Payment of 50.00 USDC received after the invoice was paid: not applied");
    expect(
      say("PAYMENT_RECEIVED", {
        amount: "0",
        reason: "wrong_asset",
        asset: "USDC",
        assetIssuer: PAYER,
        unappliedAmount: "5",
      }).sentence,
    ).toBe("Payment of 5.00 USDC received in another asset (issuer GABC…TXYZ): not applied");
    expect(
      say("PAYMENT_RECEIVED", {
        amount: "0",
        reason: "invoice_cancelled",
        asset: "XLM",
        assetIssuer: null,
        unappliedAmount: "1.5",
      }).sentence,
    ).toBe("Payment of 1.50 XLM received after the invoice was cancelled: not applied");
  });

  it("PAID with part of the transaction not applied says both", () => {
    expect(
      say("PAID", {
        status: { from: "PENDING", to: "PAID" },
        amount: "100",
        reason: "wrong_asset",
        asset: "XLM",
        assetIssuer: null,
        unappliedAmount: "3",
      }).sentence,
    ).toBe(
      "Payment of 100.00 USDC received: invoice paid in full; 3.00 XLM in the same transaction received in another asset: not applied",
    );
  });

  it("REFUNDED: the amount sent back in its asset, to whom, by the freelancer", () => {
    const w = say(
      "REFUNDED",
      {
        refundId: "r1",
        paymentId: "p1",
        amount: "25.0000000",
        asset: "USDC",
        destination: PAYER,
        transactionHash: "abc",
        amountPaid: { from: "100", to: "75" },
      },
      {},
      ME,
    );
    expect(w).toEqual({
      sentence: `Refund of 25.00 USDC sent to GABC…TXYZ`,
      actor: "you",
      details: [],
    });
    expect(
      say("REFUNDED", {
        amount: "1228.6084702",
        asset: "XLM",
        destination: PAYER,
        refundStatus: { from: "EXPIRED", to: "CONFIRMED" },
        beyondReceived: "0.5",
      }).sentence,
    ).toBe(
      "Refund of 1,228.6084702 XLM sent to GABC…TXYZ, after it had been given up (0.50 XLM beyond what the payment had left)",
    );
  });

  it("FAILED, EXPIRED, CANCELLED, DELETED", () => {
    expect(say("FAILED", { ledgerCode: "op_underfunded", transactionHash: "h" }).sentence).toBe(
      "Payment failed: the ledger refused it (op_underfunded)",
    );
    expect(say("EXPIRED", { status: { from: "PENDING", to: "EXPIRED" } }).sentence).toBe(
      "Invoice expired: its due date passed",
    );
    expect(
      say("CANCELLED", { status: { from: "PENDING", to: "CANCELLED" }, reason: "dup" }).sentence,
    ).toBe("Invoice cancelled: “dup”");
    expect(say("CANCELLED", { reason: null }).sentence).toBe("Invoice cancelled");
    expect(say("DELETED", { deletedAt: { from: null, to: "2026-01-01T00:00:00Z" } }).sentence).toBe(
      "Draft deleted",
    );
  });

  it("every stored action has its own sentence, none the generic fallback", () => {
    for (const action of AUDIT_ACTIONS) {
      expect(say(action, null).sentence).not.toMatch(/recorded$|recorded:/);
    }
  });

  it("an unknown action reads as a sentence, never as JSON", () => {
    const w = say("PAYMENT_RECORDED_OFF_LEDGER", { method: "bank", nested: { a: [1, 2] } });
    expect(w.sentence).toBe("Payment recorded off ledger recorded: method and nested");
    expect(w.sentence).not.toMatch(/[{}[\]"]/);
    expect(say("SOMETHING", null).sentence).toBe("Something recorded");
  });

  it("names the actor: you, the API key by its name, the service, the client", () => {
    expect(actorWords(ME, { me: ME })).toBe("you");
    expect(actorWords("key:sk_ab12", { me: ME, keyNames: { sk_ab12: "Accounting sync" } })).toBe(
      "your API key “Accounting sync”",
    );
    expect(actorWords("key:sk_ab12", { me: ME })).toBe("your API key sk_ab12…");
    expect(actorWords("SYSTEM", { me: ME })).toBe("the service");
    expect(actorWords("ANONYMOUS", { me: ME })).toBe("the client");
    expect(actorWords(PAYER, { me: ME })).toBe("the client");
    expect(actorWords(PAYER)).toBe("GABC…TXYZ");
  });

  it("names a team member by role and short address (docs/decisions.md, Team access)", () => {
    expect(actorWords(PAYER, { me: ME, team: { [PAYER]: "accountant" } })).toBe(
      "your accountant GABC…TXYZ",
    );
    expect(actorWords(PAYER, { me: ME, team: { [PAYER]: "member" } })).toBe(
      "team member GABC…TXYZ",
    );
  });
});
