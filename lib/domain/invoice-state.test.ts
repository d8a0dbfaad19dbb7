import { describe, expect, it } from "vitest";
import { BusinessRuleError } from "./errors";
import {
  type AuditAction,
  CANCELLABLE_STATUSES,
  canTransition,
  creation,
  EDITABLE_STATUSES,
  type EventType,
  EXPIRABLE_STATUSES,
  eventsFor,
  INVOICE_STATUSES,
  INVOICE_TRIGGERS,
  type InvoiceStatus,
  type InvoiceTrigger,
  isEditable,
  isInvoiceStatus,
  isPayable,
  PAYABLE_STATUSES,
  stampOf,
  transition,
} from "./invoice-state";

type Expected =
  | { to: InvoiceStatus; audit: AuditAction | null; event: EventType | null }
  | { ignored: true }
  | { error: string };

const modifyError = { error: "Only invoices in DRAFT status can be modified" };
const sendError = (s: InvoiceStatus) => ({ error: `Invoice cannot be sent. Current status: ${s}` });
const payError = (s: InvoiceStatus) => ({ error: `Invoice cannot be paid. Current status: ${s}` });
const cancelError = (s: InvoiceStatus) => ({
  error: `Invoice cannot be cancelled. Current status: ${s}`,
});
const ignored = { ignored: true } as const;
const paid = { to: "PAID", audit: "PAID", event: "invoice.paid" } as const;
const expired = { to: "EXPIRED", audit: "EXPIRED", event: "invoice.expired" } as const;
const cancelled = { to: "CANCELLED", audit: "CANCELLED", event: "invoice.cancelled" } as const;

// The expected table, written out independently of the implementation.
const EXPECTED: Record<InvoiceTrigger, Record<InvoiceStatus, Expected>> = {
  update: {
    DRAFT: { to: "DRAFT", audit: "UPDATED", event: null },
    PENDING: modifyError,
    PROCESSING: modifyError,
    PAID: modifyError,
    FAILED: modifyError,
    EXPIRED: modifyError,
    CANCELLED: modifyError,
  },
  delete: {
    DRAFT: { to: "DRAFT", audit: "DELETED", event: null },
    PENDING: modifyError,
    PROCESSING: modifyError,
    PAID: modifyError,
    FAILED: modifyError,
    EXPIRED: modifyError,
    CANCELLED: modifyError,
  },
  send: {
    DRAFT: { to: "PENDING", audit: "SENT", event: "invoice.sent" },
    PENDING: sendError("PENDING"),
    PROCESSING: sendError("PROCESSING"),
    PAID: sendError("PAID"),
    FAILED: sendError("FAILED"),
    EXPIRED: sendError("EXPIRED"),
    CANCELLED: sendError("CANCELLED"),
  },
  payIntent: {
    DRAFT: payError("DRAFT"),
    PENDING: { to: "PROCESSING", audit: "UPDATED", event: null },
    PROCESSING: { to: "PROCESSING", audit: null, event: null },
    PAID: payError("PAID"),
    FAILED: { to: "PROCESSING", audit: "UPDATED", event: null },
    EXPIRED: { to: "EXPIRED", audit: null, event: null },
    CANCELLED: payError("CANCELLED"),
  },
  submitFailed: {
    DRAFT: ignored,
    PENDING: ignored,
    PROCESSING: { to: "FAILED", audit: "FAILED", event: null },
    PAID: ignored,
    FAILED: ignored,
    EXPIRED: ignored,
    CANCELLED: ignored,
  },
  pay: {
    DRAFT: payError("DRAFT"),
    PENDING: paid,
    PROCESSING: paid,
    PAID: payError("PAID"),
    FAILED: paid,
    EXPIRED: paid,
    CANCELLED: payError("CANCELLED"),
  },
  expire: {
    DRAFT: ignored,
    PENDING: expired,
    PROCESSING: expired,
    PAID: ignored,
    // A payer's failed attempt does not keep an invoice from expiring.
    FAILED: expired,
    EXPIRED: ignored,
    CANCELLED: ignored,
  },
  // Recording a partial or unapplied payment, or a refund, keeps any status.
  receive: {
    DRAFT: { to: "DRAFT", audit: "PAYMENT_RECEIVED", event: "payment.confirmed" },
    PENDING: { to: "PENDING", audit: "PAYMENT_RECEIVED", event: "payment.confirmed" },
    PROCESSING: { to: "PROCESSING", audit: "PAYMENT_RECEIVED", event: "payment.confirmed" },
    PAID: { to: "PAID", audit: "PAYMENT_RECEIVED", event: "payment.confirmed" },
    FAILED: { to: "FAILED", audit: "PAYMENT_RECEIVED", event: "payment.confirmed" },
    EXPIRED: { to: "EXPIRED", audit: "PAYMENT_RECEIVED", event: "payment.confirmed" },
    CANCELLED: { to: "CANCELLED", audit: "PAYMENT_RECEIVED", event: "payment.confirmed" },
  },
  refund: {
    DRAFT: { to: "DRAFT", audit: "REFUNDED", event: "payment.refunded" },
    PENDING: { to: "PENDING", audit: "REFUNDED", event: "payment.refunded" },
    PROCESSING: { to: "PROCESSING", audit: "REFUNDED", event: "payment.refunded" },
    PAID: { to: "PAID", audit: "REFUNDED", event: "payment.refunded" },
    FAILED: { to: "FAILED", audit: "REFUNDED", event: "payment.refunded" },
    EXPIRED: { to: "EXPIRED", audit: "REFUNDED", event: "payment.refunded" },
    CANCELLED: { to: "CANCELLED", audit: "REFUNDED", event: "payment.refunded" },
  },
  voidPayment: {
    DRAFT: modifyError,
    PENDING: { to: "PENDING", audit: "PAYMENT_VOIDED", event: "payment.voided" },
    PROCESSING: { to: "PROCESSING", audit: "PAYMENT_VOIDED", event: "payment.voided" },
    PAID: modifyError,
    FAILED: { to: "FAILED", audit: "PAYMENT_VOIDED", event: "payment.voided" },
    EXPIRED: { to: "EXPIRED", audit: "PAYMENT_VOIDED", event: "payment.voided" },
    CANCELLED: { to: "CANCELLED", audit: "PAYMENT_VOIDED", event: "payment.voided" },
  },
  cancel: {
    DRAFT: cancelled,
    PENDING: cancelled,
    PROCESSING: cancelled,
    PAID: cancelError("PAID"),
    FAILED: cancelled,
    EXPIRED: cancelled,
    CANCELLED: cancelError("CANCELLED"),
  },
  // The owner's change of a payment link (title, expiry, activity) keeps any status.
  editLink: {
    DRAFT: { to: "DRAFT", audit: "UPDATED", event: null },
    PENDING: { to: "PENDING", audit: "UPDATED", event: null },
    PROCESSING: { to: "PROCESSING", audit: "UPDATED", event: null },
    PAID: { to: "PAID", audit: "UPDATED", event: null },
    FAILED: { to: "FAILED", audit: "UPDATED", event: null },
    EXPIRED: { to: "EXPIRED", audit: "UPDATED", event: null },
    CANCELLED: { to: "CANCELLED", audit: "UPDATED", event: null },
  },
  credit: {
    DRAFT: { error: "Only a sent invoice can be credited. Current status: DRAFT" },
    PENDING: { to: "PENDING", audit: "CREDITED", event: "credit_note.created" },
    PROCESSING: { to: "PROCESSING", audit: "CREDITED", event: "credit_note.created" },
    PAID: { to: "PAID", audit: "CREDITED", event: "credit_note.created" },
    FAILED: { to: "FAILED", audit: "CREDITED", event: "credit_note.created" },
    EXPIRED: { to: "EXPIRED", audit: "CREDITED", event: "credit_note.created" },
    CANCELLED: { to: "CANCELLED", audit: "CREDITED", event: "credit_note.created" },
  },
};

const cases = INVOICE_TRIGGERS.flatMap((trigger) =>
  INVOICE_STATUSES.map((status) => ({ trigger, status, expected: EXPECTED[trigger][status] })),
);

describe("transition table", () => {
  it("covers every (status, trigger) pair", () => {
    expect(cases).toHaveLength(INVOICE_STATUSES.length * INVOICE_TRIGGERS.length);
  });

  it.each(cases)("$trigger from $status", ({ trigger, status, expected }) => {
    if ("error" in expected) {
      let thrown: unknown;
      try {
        transition(status, trigger);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(BusinessRuleError);
      expect((thrown as BusinessRuleError).kind).toBe("business_rule");
      expect((thrown as BusinessRuleError).message).toBe(expected.error);
      expect(canTransition(status, trigger)).toBe(false);
    } else if ("ignored" in expected) {
      expect(transition(status, trigger)).toEqual({
        from: status,
        to: status,
        changed: false,
        audit: null,
        event: null,
      });
      expect(canTransition(status, trigger)).toBe(false);
    } else {
      expect(transition(status, trigger)).toEqual({
        from: status,
        to: expected.to,
        changed: expected.to !== status,
        audit: expected.audit,
        event: expected.event,
      });
      expect(canTransition(status, trigger)).toBe(true);
    }
  });
});

describe("status lists agree with the table", () => {
  const allowedFrom = (trigger: InvoiceTrigger) =>
    INVOICE_STATUSES.filter((status) => canTransition(status, trigger));

  it("payable statuses are exactly where pay is allowed", () => {
    expect(allowedFrom("pay")).toEqual([...PAYABLE_STATUSES]);
    expect(allowedFrom("payIntent")).toEqual([...PAYABLE_STATUSES]);
    expect(INVOICE_STATUSES.filter(isPayable)).toEqual([...PAYABLE_STATUSES]);
  });

  it("editable statuses are exactly where update and delete are allowed", () => {
    expect(allowedFrom("update")).toEqual([...EDITABLE_STATUSES]);
    expect(allowedFrom("delete")).toEqual([...EDITABLE_STATUSES]);
    expect(INVOICE_STATUSES.filter(isEditable)).toEqual([...EDITABLE_STATUSES]);
  });

  it("expirable and cancellable statuses match their triggers", () => {
    expect(allowedFrom("expire")).toEqual([...EXPIRABLE_STATUSES]);
    expect(allowedFrom("cancel")).toEqual([...CANCELLABLE_STATUSES]);
  });

  it("DRAFT is not payable: sending is what makes an invoice payable", () => {
    expect(isPayable("DRAFT")).toBe(false);
    expect(isPayable(transition("DRAFT", "send").to)).toBe(true);
  });
});

describe("isInvoiceStatus", () => {
  it("recognises only the seven statuses", () => {
    for (const status of INVOICE_STATUSES) expect(isInvoiceStatus(status)).toBe(true);
    for (const value of ["draft", "ACTIVE", "", null, 1])
      expect(isInvoiceStatus(value)).toBe(false);
  });
});

describe("what a move records beyond the table", () => {
  it("stamps the column of its trigger, and only those triggers stamp", () => {
    expect(INVOICE_TRIGGERS.map((t) => [t, stampOf(t)])).toEqual([
      ["update", null],
      ["delete", "deletedAt"],
      ["send", "sentAt"],
      ["payIntent", null],
      ["submitFailed", null],
      ["pay", "paidAt"],
      ["receive", null],
      ["refund", null],
      ["expire", "expiredAt"],
      ["cancel", "cancelledAt"],
      ["voidPayment", null],
      ["editLink", null],
      ["credit", null],
    ]);
  });

  it("creates an invoice as DRAFT and a payment link as PENDING, audited CREATED", () => {
    expect(creation("INVOICE")).toEqual({
      from: null,
      to: "DRAFT",
      changed: true,
      audit: "CREATED",
      event: "invoice.created",
    });
    expect(creation("LINK")).toMatchObject({ from: null, to: "PENDING", audit: "CREATED" });
  });

  it("names the events of each kind: links speak link.*, payments add payment.confirmed", () => {
    expect(eventsFor("INVOICE", null)).toEqual([]);
    expect(eventsFor("INVOICE", "invoice.sent")).toEqual(["invoice.sent"]);
    expect(eventsFor("INVOICE", "invoice.paid")).toEqual(["invoice.paid", "payment.confirmed"]);
    expect(eventsFor("INVOICE", "invoice.expired")).toEqual(["invoice.expired"]);
    expect(eventsFor("LINK", "invoice.created")).toEqual(["link.created"]);
    expect(eventsFor("LINK", "invoice.paid")).toEqual([
      "invoice.paid",
      "payment.confirmed",
      "link.paid",
    ]);
    expect(eventsFor("LINK", "invoice.expired")).toEqual([]);
    expect(eventsFor("LINK", "invoice.cancelled")).toEqual(["invoice.cancelled"]);
  });
});
