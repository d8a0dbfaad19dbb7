import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { rotatedSecretSerializer } from "@/lib/serializers/webhooks";
import { notOwner, webhookNotFound } from "../../../common-errors";

/** Owner only, like delete (docs/decisions.md, Webhooks: secret rotation). */
export const rotateWebhookSecret = operation({
  method: "POST",
  path: "/api/webhooks/{id}/rotate-secret",
  params: idPath,
  auth: "authed",
  scope: ["webhooks:write"],
  errors: [notOwner, webhookNotFound],
  responses: [{ status: 200, description: "The new secret", serializer: rotatedSecretSerializer }],
  operationId: "rotateWebhookSecret",
  tag: "Webhooks",
  summary: "Rotate an endpoint's signing secret",
  description:
    "Owner only: 403 `Unauthorized` for another wallet's endpoint, 404 for an unknown one. The new secret is in this response only. For 24 hours (until `previousSecretExpiresAt`) `X-Service-Signature-V2` carries two `v1=` entries, the new secret's first, then the old one's; `X-Service-Signature` uses the new secret at once. Rotating again inside the overlap drops the oldest secret.",
});
