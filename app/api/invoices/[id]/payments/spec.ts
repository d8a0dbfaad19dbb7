import { BusinessRuleError, ValidationError } from "@/lib/domain/errors";
import {
  INVALID_RECEIVED_ON,
  MANUAL_AMOUNT_CENTS,
  MANUAL_OVERPAYMENT,
  MANUAL_PAYMENT_LINK,
  RECEIVED_ON_IN_FUTURE,
} from "@/lib/domain/manual-payment";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { recordManualPaymentSchema } from "@/lib/schemas/payments";
import { idPath } from "@/lib/schemas/wire";
import { ownerInvoiceSerializer } from "@/lib/serializers/invoices";
import { invoiceNotFound, notOwner } from "../../../common-errors";

export const recordManualPayment = operation({
  method: "POST",
  path: "/api/invoices/{id}/payments",
  operationId: "recordManualPayment",
  tag: "Invoices",
  summary: "Record a payment received outside Stellar",
  description:
    "The owner records a bank transfer, cash or other payment on a payable invoice (PENDING, PROCESSING, FAILED or EXPIRED; not a payment link). It counts towards `amountPaid` like an applied ledger payment: when it completes the total the invoice becomes PAID (audit PAID, `invoice.paid` with a null `transactionHash`), otherwise audit PAYMENT_RECEIVED; each writes `payment.confirmed` (with `method`), and the client's receipt and the freelancer's notice are queued, all in one transaction. It has no transaction hash, ledger or sender, and is never refunded through Stellar. `amount` is in the invoice's price currency when it has one (whole cents), else in its asset, and may not exceed the amount due (partial payments yes, overpayment never: docs/decisions.md). Answers the owner view.",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  body: {
    schema: recordManualPaymentSchema,
    examples: {
      bank: {
        summary: "A bank transfer",
        value: {
          amount: "250.00",
          receivedOn: "2026-01-15",
          method: "bank_transfer",
          reference: "SEPA 2026-114",
        },
      },
      cash: {
        summary: "Cash, no reference",
        value: { amount: "40", receivedOn: "2026-01-14", method: "cash" },
      },
    },
  },
  responses: [
    {
      status: 201,
      description: "Recorded: the invoice as it is now",
      serializer: ownerInvoiceSerializer,
    },
  ],
  errors: [
    new ValidationError(MANUAL_OVERPAYMENT, {
      amount: "must be at most 150, the amount due",
    }),
    new ValidationError(INVALID_REQUEST, { amount: MANUAL_AMOUNT_CENTS }),
    new ValidationError(INVALID_REQUEST, { receivedOn: RECEIVED_ON_IN_FUTURE }),
    new ValidationError(INVALID_REQUEST, { receivedOn: INVALID_RECEIVED_ON }),
    new BusinessRuleError("Invoice cannot be paid. Current status: PAID"),
    new BusinessRuleError(MANUAL_PAYMENT_LINK),
    notOwner,
    invoiceNotFound,
  ],
});
