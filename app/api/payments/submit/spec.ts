import { NETWORK_PASSPHRASES } from "@/lib/config";
import { BusinessRuleError, ValidationError } from "@/lib/domain/errors";
import { MISMATCH_MESSAGE, OWN_INVOICE_MESSAGE } from "@/lib/domain/payment-match";
import { operation } from "@/lib/http/route";
import { submitSchema } from "@/lib/schemas/payments";
import { EXAMPLE_ID } from "@/lib/schemas/wire";
import { submitPendingSerializer, submitResultSerializer } from "@/lib/serializers/payments";
import { LINK_FULL } from "@/lib/services/links/checkout";
import { INVALID_XDR } from "@/lib/services/payments/settle";
import { LEDGER_MESSAGES, ledgerError } from "@/lib/stellar/errors";
import { invoiceNotFound } from "../../common-errors";

const { testnet, mainnet } = NETWORK_PASSPHRASES;

export const submitPayment = operation({
  method: "POST",
  path: "/api/payments/submit",
  operationId: "submitPayment",
  tag: "Payments",
  summary: "Submit a signed transaction",
  description:
    "The body names the invoice (or payment link) being paid, `invoiceId`, and carries the payer's signed transaction, `signedTransactionXdr` (or its alias `signedXdr`). The transaction is checked before it reaches the ledger: it must be signed for the invoice's network, not come from the freelancer's own wallet, and be the payment the invoice asks for (recipient, asset, memo, at least the amount due). On success the invoice is PAID. A network timeout answers 202 with the hash: poll the status or confirm with it (never resubmit another transaction). Send an `Idempotency-Key` to make retries safe.",
  auth: "public",
  ledger: true,
  idempotent: true,
  internalError: "Payment processing failed",
  body: {
    schema: submitSchema,
    examples: {
      formA: {
        summary: "signedTransactionXdr",
        value: { invoiceId: EXAMPLE_ID, signedTransactionXdr: "AAAAAgAAAACKc4j..." },
      },
      formB: {
        summary: "signedXdr (alias)",
        value: { invoiceId: EXAMPLE_ID, signedXdr: "AAAAAgAAAACKc4j..." },
      },
    },
  },
  responses: [
    { status: 200, description: "Paid (or already paid)", serializer: submitResultSerializer },
    {
      status: 202,
      description: "Submitted, not yet confirmed by the network",
      serializer: submitPendingSerializer,
    },
  ],
  errors: [
    new ValidationError(INVALID_XDR, { signedTransactionXdr: "not a transaction envelope" }),
    new ValidationError(
      `Network mismatch: Transaction signed for '${mainnet}' but invoice requires '${testnet}'`,
    ),
    new BusinessRuleError(MISMATCH_MESSAGE),
    new BusinessRuleError(LINK_FULL),
    new BusinessRuleError("Underpayment: paid 10, expected 25"),
    new BusinessRuleError(OWN_INVOICE_MESSAGE),
    new BusinessRuleError("Invoice cannot be paid. Current status: CANCELLED"),
    ...Object.keys(LEDGER_MESSAGES).map((code) => ledgerError(code)),
    ledgerError("op_underfunded", "USDC"),
    invoiceNotFound,
  ],
});
