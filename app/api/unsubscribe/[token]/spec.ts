import { NotFoundError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { UNSUBSCRIBE_NOT_FOUND } from "@/lib/services/email/unsubscribe";
import { z } from "@/lib/zod";

const params = z.object({
  token: z.string().meta({ description: "The signed token from the email's unsubscribe link" }),
});
const page = {
  raw: { contentType: "text/html; charset=utf-8" },
} as const;
const notFound = new NotFoundError(UNSUBSCRIBE_NOT_FOUND);

export const getUnsubscribe = operation({
  method: "GET",
  path: "/api/unsubscribe/{token}",
  operationId: "getUnsubscribe",
  tag: "Invoices",
  summary: "Unsubscribe page",
  description:
    "The link in every email about an invoice (footer and `List-Unsubscribe`): a small page naming the invoice, with a button that stops its reminders (POST). Changes nothing by itself, so a mail scanner following links cannot unsubscribe anyone. 404 for a token that is not ours.",
  auth: "public",
  params,
  responses: [{ status: 200, description: "The confirmation page", ...page }],
  errors: [notFound],
});

export const postUnsubscribe = operation({
  method: "POST",
  path: "/api/unsubscribe/{token}",
  operationId: "postUnsubscribe",
  tag: "Invoices",
  summary: "Stop an invoice's reminders",
  description:
    "One-click unsubscribe (RFC 8058 `List-Unsubscribe-Post: List-Unsubscribe=One-Click`, or the page's button): sets the invoice's `remindersStoppedAt` and skips its queued reminders. Any body is ignored; idempotent (a second call answers the same page). Receipts still go out. 404 for a token that is not ours.",
  auth: "public",
  params,
  responses: [{ status: 200, description: "Reminders are stopped", ...page }],
  errors: [notFound],
});
