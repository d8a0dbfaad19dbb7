import { NETWORK_PASSPHRASES } from "@/lib/config";
import { BusinessRuleError, NotFoundError, ValidationError } from "@/lib/domain/errors";
import { REFUND_EXCEEDS_RECEIVED } from "@/lib/domain/refund";
import { operation } from "@/lib/http/route";
import { submitRefundSchema } from "@/lib/schemas/refunds";
import { EXAMPLE_ID } from "@/lib/schemas/wire";
import { refundSerializer } from "@/lib/serializers/refunds";
import { INVALID_XDR } from "@/lib/services/payments/settle";
import { REFUND_NOT_FOUND } from "@/lib/services/refunds/store";
import { REFUND_EXPIRED, REFUND_MISMATCH } from "@/lib/services/refunds/submit-refund";
import { LEDGER_MESSAGES, ledgerError } from "@/lib/stellar/errors";
import { notOwner } from "../../common-errors";

const { testnet, mainnet } = NETWORK_PASSPHRASES;

export const submitRefund = operation({
  method: "POST",
  path: "/api/refunds/submit",
  operationId: "submitRefund",
  tag: "Invoices",
  summary: "Submit a signed refund",
  description:
    "The owner's signed refund transaction is checked before it reaches the ledger: signed for the invoice's network, and exactly the refund built (source, destination, asset and issuer, amount, memo), and still within what the payment has left (a refund marked FAILED holds nothing: 400 `Refund exceeds the amount received` when another refund took its amount since). On success the refund is CONFIRMED: the payment's `amountRefunded` grows (status REFUNDED once nothing is left), refunded applied money leaves the invoice's `amountPaid`, the invoice keeps its status, with audit `REFUNDED` and event `payment.refunded`. A network timeout answers 202 with the refund SUBMITTED; the watcher confirms it. A refund already confirmed answers 200 as it is.",
  auth: "authed",
  // Refunds move the owner's money: never a team member's (docs/decisions.md, Team access).
  team: "owner",
  scope: ["invoices:write"],
  ledger: true,
  responses: [
    { status: 200, description: "Refund confirmed on the ledger", serializer: refundSerializer },
    {
      status: 202,
      description: "Submitted, not yet confirmed by the network",
      serializer: refundSerializer,
    },
  ],
  body: {
    schema: submitRefundSchema,
    examples: {
      request: {
        summary: "A signed refund",
        value: { refundId: EXAMPLE_ID, signedTransactionXdr: "AAAAAgAAAACKc4j..." },
      },
    },
  },
  errors: [
    new ValidationError(INVALID_XDR, { signedTransactionXdr: "not a transaction envelope" }),
    new BusinessRuleError(
      `Network mismatch: Transaction signed for '${mainnet}' but the refund requires '${testnet}'`,
    ),
    new BusinessRuleError(REFUND_MISMATCH),
    new BusinessRuleError(REFUND_EXPIRED),
    new BusinessRuleError(REFUND_EXCEEDS_RECEIVED, {
      amount: "at most 0.0000000 can be refunded from this payment",
    }),
    new BusinessRuleError("Transaction was not successful"),
    ...Object.keys(LEDGER_MESSAGES).map((code) => ledgerError(code)),
    notOwner,
    new NotFoundError(REFUND_NOT_FOUND),
  ],
});
