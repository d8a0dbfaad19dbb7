import { BusinessRuleError, NotFoundError } from "@/lib/domain/errors";
import {
  MISMATCH_MESSAGE,
  NOT_SUCCESSFUL_MESSAGE,
  OWN_INVOICE_MESSAGE,
} from "@/lib/domain/payment-match";
import { operation } from "@/lib/http/route";
import { confirmSchema } from "@/lib/schemas/payments";
import { EXAMPLE_HASH, EXAMPLE_ID } from "@/lib/schemas/wire";
import { confirmSerializer } from "@/lib/serializers/payments";
import { LINK_FULL } from "@/lib/services/links/checkout";
import { TX_NOT_FOUND_ON_NETWORK } from "@/lib/services/payments/settle";
import { invoiceNotFound } from "../../common-errors";

export const confirmPayment = operation({
  method: "POST",
  path: "/api/payments/confirm",
  operationId: "confirmPayment",
  tag: "Payments",
  summary: "Confirm a payment by transaction hash",
  description:
    "For the mobile flow, a retry after a timeout, or manual verification. The body names the invoice (or payment link), `invoiceId`, and the transaction, `transactionHash`. The transaction must have succeeded on the invoice's network and carry the invoice number as text memo; every operation paying the freelancer is recorded (applied when in the invoice asset from the right issuer while the invoice is payable). 200 `confirmed` when it completes the total; a transaction that leaves the invoice unpaid is recorded and answers 400 `Underpayment: paid X, expected Y` (this transaction's applied amount, the amount due before it) with `details.amountPaid` and `details.amountDue`.",
  auth: "public",
  ledger: true,
  body: {
    schema: confirmSchema,
    examples: {
      request: {
        summary: "Request",
        value: { invoiceId: EXAMPLE_ID, transactionHash: EXAMPLE_HASH },
      },
    },
  },
  responses: [
    { status: 200, description: "Confirmed (or already paid)", serializer: confirmSerializer },
  ],
  errors: [
    new BusinessRuleError(NOT_SUCCESSFUL_MESSAGE),
    new BusinessRuleError(MISMATCH_MESSAGE),
    new BusinessRuleError(LINK_FULL),
    new BusinessRuleError("Underpayment: paid 10, expected 25", {
      amountPaid: "10.0000000",
      amountDue: "15.0000000",
    }),
    new BusinessRuleError(OWN_INVOICE_MESSAGE),
    new BusinessRuleError("Invoice cannot be paid. Current status: DRAFT"),
    invoiceNotFound,
    new NotFoundError(TX_NOT_FOUND_ON_NETWORK),
  ],
});
