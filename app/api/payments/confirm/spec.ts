import { BusinessRuleError, NotFoundError } from "@/lib/domain/errors";
import { MISMATCH_MESSAGE, NOT_SUCCESSFUL_MESSAGE } from "@/lib/domain/payment-match";
import { operation } from "@/lib/http/route";
import { confirmSchema } from "@/lib/schemas/payments";
import { EXAMPLE_HASH, EXAMPLE_ID } from "@/lib/schemas/wire";
import { confirmSerializer } from "@/lib/serializers/payments";
import { TX_NOT_FOUND_ON_NETWORK } from "@/lib/services/payments/settle";
import { invoiceNotFound } from "../../common-errors";

export const confirmPayment = operation({
  method: "POST",
  path: "/api/payments/confirm",
  operationId: "confirmPayment",
  tag: "Payments",
  summary: "Confirm a payment by transaction hash",
  description:
    "For the mobile flow, a retry after a timeout, or manual verification. The transaction must have succeeded on the invoice's network, carry the invoice number as text memo, and pay the freelancer at least the total in the invoice asset (right issuer).",
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
    new BusinessRuleError("Underpayment: paid 99.5, expected 100"),
    new BusinessRuleError("Invoice cannot be paid. Current status: DRAFT"),
    invoiceNotFound,
    new NotFoundError(TX_NOT_FOUND_ON_NETWORK),
  ],
});
