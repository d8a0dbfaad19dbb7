import { ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { createApiKeySchema } from "@/lib/schemas/api-keys";
import { apiKeyListSerializer, createdApiKeySerializer } from "@/lib/serializers/api-keys";
import { TOO_MANY_KEYS } from "@/lib/services/auth/api-keys";

export const createApiKey = operation({
  method: "POST",
  path: "/api/keys",
  operationId: "createApiKey",
  tag: "Auth",
  summary: "Create a restricted API key",
  description:
    "For a server that integrates without the wallet's secret key. The key (`sk_test_...` for testnet, `sk_live_...` for mainnet) is in this response only; it works as `Authorization: Bearer sk_...` on the signed-in operations its scopes allow (each operation lists them), on its network's invoices and links only, and answers 403 `Insufficient scope` elsewhere. A key never manages keys or sessions. Signed-in wallet only; at most 25 active keys.",
  auth: "authed",
  body: {
    schema: createApiKeySchema,
    examples: {
      request: {
        summary: "Request",
        value: { name: "Accounting sync", scopes: ["invoices:read"], network: "testnet" },
      },
    },
  },
  responses: [
    { status: 201, description: "The key, with its secret", serializer: createdApiKeySerializer },
  ],
  errors: [
    new ValidationError(INVALID_REQUEST, { scopes: "scopes must list at least one scope" }),
    new ValidationError(TOO_MANY_KEYS, { keys: "at most 25 active keys per wallet" }),
  ],
});

export const listApiKeys = operation({
  method: "GET",
  path: "/api/keys",
  operationId: "listApiKeys",
  tag: "Auth",
  summary: "List API keys",
  description: "The wallet's keys, revoked ones included, newest first. Secrets are never listed.",
  auth: "authed",
  responses: [{ status: 200, description: "The wallet's keys", serializer: apiKeyListSerializer }],
});
