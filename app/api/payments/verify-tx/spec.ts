import { NotFoundError, ValidationError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { INVALID_NETWORK } from "@/lib/schemas/common";
import { verifyTxSchema } from "@/lib/schemas/payments";
import { EXAMPLE_HASH } from "@/lib/schemas/wire";
import { verifiedTransactionSerializer } from "@/lib/serializers/payments";

export const verifyTransaction = operation({
  method: "POST",
  path: "/api/payments/verify-tx",
  operationId: "verifyTransaction",
  tag: "Payments",
  summary: "Inspect any transaction",
  description:
    "Not tied to an invoice: every payment operation of the transaction, a Stellar Asset Contract `transfer` (`contract_transfer`, e.g. from a smart wallet: `from` is its C address) among them. Without a network it is looked up on testnet, then mainnet.",
  auth: "public",
  ledger: true,
  internalError: "Failed to verify transaction",
  body: {
    schema: verifyTxSchema,
    examples: {
      request: { summary: "Request", value: { transactionHash: EXAMPLE_HASH, network: "testnet" } },
    },
  },
  responses: [
    { status: 200, description: "The transaction", serializer: verifiedTransactionSerializer },
  ],
  errors: [
    new ValidationError("transactionHash required"),
    new ValidationError(INVALID_NETWORK),
    new NotFoundError("Transaction not found"),
  ],
});
