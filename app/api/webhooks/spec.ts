import { ConflictError, ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { createWebhookSchema } from "@/lib/schemas/webhooks";
import { createdWebhookSerializer, webhookListSerializer } from "@/lib/serializers/webhooks";
import {
  WEBHOOK_URL_NO_DNS,
  WEBHOOK_URL_NOT_HTTPS,
  WEBHOOK_URL_PRIVATE,
  WEBHOOK_URL_REFUSED,
} from "@/lib/webhooks/ssrf";
import { WEBHOOK_LIMIT_REACHED } from "@/lib/webhooks/subscriptions";

export const createWebhook = operation({
  method: "POST",
  path: "/api/webhooks",
  operationId: "createWebhook",
  tag: "Webhooks",
  summary: "Register a webhook endpoint",
  description:
    "`url` must be a public https URL (checked again, with its DNS answer, at every delivery); `events` lists event types or `*`. The signing secret is in this response only. At most 10 endpoints per wallet. A refused URL answers 400 with the cause in `error` (`Webhook URL must use https`, `Webhook URL host has no DNS answer`, `Webhook URL resolves to a private address`, or `Webhook URL must be a public https URL` for a malformed URL or credentials in it) and the particulars in `details.url` (the host without an answer, the kind of address, never the address a name resolves to).",
  auth: "authed",
  scope: ["webhooks:write"],
  body: {
    schema: createWebhookSchema,
    examples: {
      request: {
        summary: "Request",
        value: {
          url: "https://example.com/hooks/stellar",
          events: ["invoice.paid", "invoice.expired"],
        },
      },
    },
  },
  responses: [
    {
      status: 201,
      description: "The endpoint, with its secret",
      serializer: createdWebhookSerializer,
    },
  ],
  errors: [
    new ValidationError(WEBHOOK_URL_NOT_HTTPS, { url: "the scheme must be https" }),
    new ValidationError(WEBHOOK_URL_NO_DNS, { url: "no DNS answer for hooks.example.com" }),
    new ValidationError(WEBHOOK_URL_PRIVATE, {
      url: "hooks.example.com resolves to a private address",
    }),
    new ValidationError(WEBHOOK_URL_REFUSED, { url: "credentials in the URL are not allowed" }),
    new ValidationError(INVALID_REQUEST, { events: "events must list at least one event type" }),
    new ConflictError(WEBHOOK_LIMIT_REACHED),
  ],
});

export const listWebhooks = operation({
  method: "GET",
  path: "/api/webhooks",
  operationId: "listWebhooks",
  tag: "Webhooks",
  summary: "List webhook endpoints",
  description: "The caller's endpoints, oldest first. Secrets are never listed.",
  auth: "authed",
  scope: ["webhooks:write"],
  responses: [
    { status: 200, description: "The caller's endpoints", serializer: webhookListSerializer },
  ],
});
