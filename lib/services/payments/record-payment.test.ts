import { describe, expect, it } from "vitest";
import { BusinessRuleError } from "@/lib/domain/errors";
import type { InvoiceRow, PaymentRow } from "../invoices/store";
import { answerFor, type Recording } from "./record-payment";

// The confirm/submit contract over a recording (docs/decisions.md, Submit and confirm).

const invoice = (over: Partial<InvoiceRow>) =>
  ({
    id: "inv1",
    status: "PENDING",
    total: "25.0000000",
    amountPaid: "0",
    deletedAt: null,
    ...over,
  }) as InvoiceRow;
const row = (over: Partial<PaymentRow> = {}) =>
  ({
    id: "pay1",
    transactionHash: "a".repeat(64),
    applied: true,
    amount: "10.0000000",
    ...over,
  }) as PaymentRow;

function recording(over: Partial<Recording>): Recording {
  return {
    invoice: invoice({}),
    statusBefore: "PENDING",
    rows: [row()],
    created: true,
    applied: "10.0000000",
    dueBefore: "25.0000000",
    paidNow: false,
    selfPaymentOnly: false,
    ...over,
  };
}

function thrown(r: Recording): BusinessRuleError {
  try {
    answerFor(r);
  } catch (err) {
    if (err instanceof BusinessRuleError) return err;
    throw err;
  }
  throw new Error("answerFor did not throw");
}

describe("answerFor", () => {
  it("a transaction that completed the total is confirmed", () => {
    const paid = invoice({ status: "PAID", amountPaid: "25.0000000" });
    const outcome = answerFor(recording({ invoice: paid, paidNow: true }));
    expect(outcome).toMatchObject({ kind: "recorded", payment: { id: "pay1" } });
  });

  it("a PAID invoice otherwise answers already_paid (a repeat, or a later transaction)", () => {
    const paid = invoice({ status: "PAID", amountPaid: "25.0000000" });
    expect(answerFor(recording({ invoice: paid, created: false })).kind).toBe("already_paid");
    const late = recording({
      invoice: paid,
      statusBefore: "PAID",
      rows: [row({ applied: false, unappliedReason: "already_paid" })],
      applied: "0.0000000",
    });
    expect(answerFor(late).kind).toBe("already_paid");
  });

  it("a partial payment is the underpayment, with what is paid and due after it", () => {
    const err = thrown(
      recording({ invoice: invoice({ amountPaid: "10.0000000" }), applied: "10.0000000" }),
    );
    expect(err.message).toBe("Underpayment: paid 10, expected 25");
    expect(err.details).toEqual({ amountPaid: "10.0000000", amountDue: "15.0000000" });
  });

  it("self-payments only: Cannot pay your own invoice", () => {
    expect(thrown(recording({ rows: [], selfPaymentOnly: true, applied: "0" })).message).toBe(
      "Cannot pay your own invoice",
    );
  });

  it("nothing applied: the status refusal, else does not match", () => {
    const none = { rows: [row({ applied: false })], applied: "0.0000000" };
    expect(thrown(recording({ ...none, invoice: invoice({ status: "CANCELLED" }) })).message).toBe(
      "Invoice cannot be paid. Current status: CANCELLED",
    );
    expect(thrown(recording(none)).message).toBe("Transaction does not match invoice");
  });
});
