import { NETWORK_PASSPHRASES } from "@/lib/config";
import { BusinessRuleError, ValidationError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { submitTrustlineSchema } from "@/lib/schemas/readiness";
import { trustlineResultSerializer } from "@/lib/serializers/readiness";
import { INVALID_XDR } from "@/lib/services/payments/settle";
import { NOT_A_TRUSTLINE } from "@/lib/services/payments/trustline";
import { LEDGER_MESSAGES, ledgerError } from "@/lib/stellar/errors";

export const submitTrustline = operation({
  method: "POST",
  path: "/api/wallet/trustline/submit",
  operationId: "submitTrustline",
  tag: "Invoices",
  summary: "Submit the wallet's signed trustline",
  description:
    "Relays a signed trustline to the network: only a transaction of the signed-in wallet, signed for the network, whose every operation is a `change_trust` to an issuer the service trusts there. The ledger's refusals answer its messages.",
  auth: "authed",
  scope: ["invoices:write"],
  ledger: true,
  body: {
    schema: submitTrustlineSchema,
    examples: {
      request: {
        summary: "A signed trustline",
        value: {
          networkPassphrase: NETWORK_PASSPHRASES.testnet,
          signedTransactionXdr: "AAAAAgAAAACKc4j...",
        },
      },
    },
  },
  responses: [
    { status: 200, description: "Trustline on the ledger", serializer: trustlineResultSerializer },
  ],
  errors: [
    new ValidationError(INVALID_XDR, { signedTransactionXdr: "not a transaction envelope" }),
    new BusinessRuleError(
      `Network mismatch: Transaction signed for '${NETWORK_PASSPHRASES.mainnet}' but the trustline is for '${NETWORK_PASSPHRASES.testnet}'`,
    ),
    new BusinessRuleError(NOT_A_TRUSTLINE),
    ...Object.keys(LEDGER_MESSAGES).map((code) => ledgerError(code)),
  ],
});
