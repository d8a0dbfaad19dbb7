import {
  BusinessRuleError,
  NotFoundError,
  UnavailableError,
  ValidationError,
} from "@/lib/domain/errors";
import { NOT_REFUNDABLE_OFF_LEDGER } from "@/lib/domain/manual-payment";
import {
  NOTHING_TO_REFUND,
  REFUND_AMOUNT_REQUIRED,
  REFUND_EXCEEDS_RECEIVED,
} from "@/lib/domain/refund";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { idParamSchema } from "@/lib/schemas/common";
import { createRefundSchema } from "@/lib/schemas/refunds";
import { refundIntentSerializer } from "@/lib/serializers/refunds";
import {
  NOT_REFUNDABLE,
  PAYMENT_NOT_FOUND,
  REFUND_SOURCE_NOT_FOUND,
} from "@/lib/services/refunds/create-refund";
import { ledgerError } from "@/lib/stellar/errors";
import { NO_RPC } from "@/lib/stellar/soroban";
import { z } from "@/lib/zod";
import { invoiceNotFound, notOwner } from "../../../../../common-errors";

export const createRefund = operation({
  method: "POST",
  path: "/api/invoices/{id}/payments/{paymentId}/refund",
  operationId: "createRefund",
  tag: "Invoices",
  summary: "Build a refund of a payment",
  description:
    "The owner's unsigned payment from the freelancer's wallet back to the payment's sender (the `M...` address it sent from when it sent from a muxed account), in the asset received (same issuer), memo `RF-<refund id>`, 300-second time bounds, fee from the network. `amount` is optional: by default the whole payment if it was not applied, the overpaid part if the invoice is PAID and overpaid, or the whole applied payment of an invoice not yet PAID. A refund may never exceed the amount received less what was refunded or is being refunded. Sign `transactionXdr` with the wallet and send it to POST /api/refunds/submit (or send it to the network yourself: the watcher recognises the memo). Another wallet's invoice or payment is 403 `Unauthorized`.",
  auth: "authed",
  // Refunds move the owner's money: never a team member's (docs/decisions.md, Team access).
  team: "owner",
  scope: ["invoices:write"],
  ledger: true,
  params: z.object({
    id: idParamSchema.meta({ description: "Invoice (or payment link) id" }),
    paymentId: idParamSchema.meta({ description: "Payment id (from the owner view)" }),
  }),
  body: {
    schema: createRefundSchema,
    examples: {
      default: { summary: "The default amount", value: {} },
      amount: { summary: "An explicit amount", value: { amount: "5" } },
    },
  },
  responses: [
    {
      status: 201,
      description: "Refund built, awaiting signature",
      serializer: refundIntentSerializer,
    },
  ],
  errors: [
    new BusinessRuleError(REFUND_EXCEEDS_RECEIVED, {
      amount: "at most 5.0000000 can be refunded from this payment",
    }),
    new BusinessRuleError(NOTHING_TO_REFUND),
    new BusinessRuleError(NOT_REFUNDABLE),
    new BusinessRuleError(NOT_REFUNDABLE_OFF_LEDGER),
    new ValidationError(REFUND_AMOUNT_REQUIRED, { amount: "required" }),
    new ValidationError(REFUND_SOURCE_NOT_FOUND),
    new ValidationError(INVALID_REQUEST),
    ledgerError("op_underfunded"),
    ledgerError("op_src_no_trust"),
    ledgerError("op_no_destination"),
    ledgerError("op_no_trust"),
    // A refund to a smart wallet (C...): its asset contract transfer, simulated through RPC.
    new UnavailableError(NO_RPC),
    notOwner,
    invoiceNotFound,
    new NotFoundError(PAYMENT_NOT_FOUND),
  ],
});
