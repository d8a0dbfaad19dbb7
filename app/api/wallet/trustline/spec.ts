import { BusinessRuleError, ValidationError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { buildTrustlineSchema } from "@/lib/schemas/readiness";
import { trustlineTransactionSerializer } from "@/lib/serializers/readiness";
import { WALLET_NOT_ACTIVATED } from "@/lib/services/payments/trustline";

export const buildTrustline = operation({
  method: "POST",
  path: "/api/wallet/trustline",
  operationId: "buildTrustline",
  tag: "Invoices",
  summary: "Build the wallet's trustline to USDC or EURC",
  description:
    "The unsigned `change_trust` from the signed-in wallet to the asset's trusted issuer on the network, with no limit (the ledger's maximum): it adds a missing trustline or raises a full one. Sign it with the wallet and send it to POST /api/wallet/trustline/submit.",
  auth: "authed",
  scope: ["invoices:write"],
  ledger: true,
  body: {
    schema: buildTrustlineSchema,
    examples: {
      request: {
        summary: "USDC on testnet",
        value: { networkPassphrase: "Test SDF Network ; September 2015", currency: "USDC" },
      },
    },
  },
  responses: [
    { status: 200, description: "Unsigned trustline", serializer: trustlineTransactionSerializer },
  ],
  errors: [
    new ValidationError("Invalid request", { currency: "currency must be USDC or EURC" }),
    new BusinessRuleError(WALLET_NOT_ACTIVATED),
  ],
});
