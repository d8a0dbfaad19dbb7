import { ValidationError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { nonceRequestSchema } from "@/lib/schemas/auth";
import { EXAMPLE_WALLET } from "@/lib/schemas/wire";
import { nonceSerializer } from "@/lib/serializers/system";
import { INVALID_ADDRESS } from "@/lib/services/auth/nonce";

export const createNonce = operation({
  method: "POST",
  path: "/api/auth/nonce",
  operationId: "createNonce",
  tag: "Auth",
  summary: "Request a sign-in nonce",
  description:
    "Returns a 32-hex-character nonce bound to the wallet and the five-line message to sign (`<SERVICE_NAME> Authentication`, `Wallet: ...`, `Nonce: ...`, `Timestamp: ...`, then `URI: <APP_URL>`: the spec's four lines in its order, the site that asks fifth). The nonce is valid for 300 seconds and is consumed by the first attempt that uses it.",
  auth: "public",
  body: {
    schema: nonceRequestSchema,
    message: INVALID_ADDRESS,
    examples: { request: { summary: "Request", value: { walletAddress: EXAMPLE_WALLET } } },
  },
  responses: [{ status: 200, description: "A fresh nonce", serializer: nonceSerializer }],
  errors: [new ValidationError(INVALID_ADDRESS)],
});
