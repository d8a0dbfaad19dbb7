import { sameInBothForms } from "@/lib/http/forms";
import { apiKeyList, createdApiKey, revokedApiKey } from "@/lib/schemas/api-keys";
import type { FormB } from "@/lib/schemas/wire";
import type { ApiKeyRow } from "@/lib/services/auth/api-keys";
import { iso } from "./common";

/** Never the secret (only its hash is stored). */
const apiKey = (k: ApiKeyRow): FormB<typeof revokedApiKey> => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: k.scopes as FormB<typeof revokedApiKey>["scopes"],
  network: k.network,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: iso(k.lastUsedAt),
  revokedAt: iso(k.revokedAt),
});

export const createdApiKeySerializer = sameInBothForms(
  createdApiKey,
  (k: { key: ApiKeyRow; secret: string }): FormB<typeof createdApiKey> => ({
    ...apiKey(k.key),
    secret: k.secret,
  }),
);

export const apiKeyListSerializer = sameInBothForms(apiKeyList, (list: ApiKeyRow[]) =>
  list.map(apiKey),
);

export const revokedApiKeySerializer = sameInBothForms(revokedApiKey, apiKey);
