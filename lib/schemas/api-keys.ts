import { API_KEY_SCOPES } from "@/lib/domain/api-key-scopes";
import { z } from "@/lib/zod";
import { networkNameSchema } from "./common";
import { type FormB, id, timestamp, wire } from "./wire";

/** `POST /api/keys` (docs/decisions.md, API keys). */
export const createApiKeySchema = z
  .object({
    name: z
      .string({ error: "name is required" })
      .trim()
      .min(1, "name is required")
      .max(100, "name must be at most 100 characters"),
    scopes: z
      .array(
        z.enum(API_KEY_SCOPES, {
          error: `Unknown scope. Use one of ${API_KEY_SCOPES.join(", ")}`,
        }),
        { error: "scopes must be an array of scopes" },
      )
      .min(1, "scopes must list at least one scope")
      .max(API_KEY_SCOPES.length, "scopes lists a scope twice")
      .transform((list) => [...new Set(list)]),
    network: networkNameSchema.optional().describe("default testnet (an `sk_test_` key)"),
  })
  .strict();

export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

// ---- responses (lib/serializers/api-keys.ts) -----------------------------------------------

const apiKey = z
  .object({
    id,
    name: z.string().meta({ example: "Accounting sync" }),
    prefix: z.string().meta({
      description:
        "The key's first characters, as lists and audit entries (`key:<prefix>`) show it",
      example: "sk_test_Q3x9Lm2a",
    }),
    scopes: z.array(z.enum(API_KEY_SCOPES)).meta({ example: ["invoices:read"] }),
    network: networkNameSchema.meta({
      description:
        "`testnet` keys (`sk_test_`) see testnet invoices only, `mainnet` ones (`sk_live_`) mainnet",
    }),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable().meta({ description: "Updated at most once a minute" }),
    revokedAt: timestamp.nullable(),
  })
  .meta({ id: "ApiKey" });

export const createdApiKey = wire(
  "CreatedApiKey",
  apiKey.extend({
    secret: z.string().meta({
      description: "The key (`sk_test_...` or `sk_live_...`), shown only in this response",
      example: "sk_test_Q3x9Lm2a...",
    }),
  }),
);

export const apiKeyList = wire("ApiKeyList", z.array(apiKey));
export const revokedApiKey = wire("RevokedApiKey", apiKey);

export type ApiKeyBody = FormB<typeof apiKeyList>[number];
export type CreatedApiKeyBody = FormB<typeof createdApiKey>;
