import { ValidationError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { INVALID_NETWORK } from "@/lib/schemas/common";
import { readinessQuerySchema } from "@/lib/schemas/readiness";
import { readinessSerializer } from "@/lib/serializers/readiness";

export const getWalletReadiness = operation({
  method: "GET",
  path: "/api/wallet/readiness",
  operationId: "getWalletReadiness",
  tag: "Invoices",
  summary: "Can the signed-in wallet receive an asset?",
  description:
    "Reads the wallet's account on the network: it must exist and, for USDC and EURC, hold an authorized trustline to the trusted issuer with room for `amount`. `not_ready` carries the message sending an invoice would answer and the fix; `unknown` when the network cannot be reached (sending is not blocked then). The invoice form shows it while drafting.",
  auth: "authed",
  scope: ["invoices:read", "invoices:write"],
  query: readinessQuerySchema,
  responses: [{ status: 200, description: "Readiness", serializer: readinessSerializer }],
  errors: [
    new ValidationError(INVALID_NETWORK, {
      network: "network and networkPassphrase name different networks",
    }),
  ],
});
