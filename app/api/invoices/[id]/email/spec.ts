import { BusinessRuleError, RateLimitedError, ValidationError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { invoiceEmailPolicy } from "@/lib/ratelimit/policies";
import { resendInvoiceEmailBody } from "@/lib/schemas/email";
import { idPath } from "@/lib/schemas/wire";
import { queuedEmailSerializer } from "@/lib/serializers/email";
import {
  CANCELLED_NO_EMAIL,
  NO_CLIENT_EMAIL,
  NOT_SENT_YET,
  RECIPIENT_NOT_ALLOWED,
} from "@/lib/services/email/invoice-email";
import { costlyLimit, invoiceNotFound, notOwner } from "../../../common-errors";

export const resendInvoiceEmail = operation({
  method: "POST",
  path: "/api/invoices/{id}/email",
  operationId: "resendInvoiceEmail",
  tag: "Invoices",
  summary: "Email the invoice again",
  description:
    "Queues the invoice email (summary, total, due date, Pay now link, the PDF attached) to the client's email or to `to` (one address; a line break or several addresses: 400), which must be the invoice's client email or the owner's own (the invoice's freelancer email or the profile's email; any other: 400). Not for drafts or cancelled invoices. At most 10 per hour per invoice (429). Delivery follows the outbox (GET /api/invoices/{id}/emails shows its state); without `SMTP_URL` on the server nothing is sent: `configured` is false and the email is recorded as `skipped`.",
  auth: "authed",
  scope: ["invoices:write"],
  limit: costlyLimit,
  params: idPath,
  body: {
    schema: resendInvoiceEmailBody,
    examples: {
      client: { summary: "To the client's email", value: {} },
      own: { summary: "A copy to your own address", value: { to: "me@freelancer.example" } },
    },
  },
  responses: [{ status: 202, description: "Queued", serializer: queuedEmailSerializer }],
  errors: [
    new ValidationError("The recipient must be one email address", {
      to: "must be one email address",
    }),
    new ValidationError(NO_CLIENT_EMAIL, { to: "required" }),
    new ValidationError(RECIPIENT_NOT_ALLOWED, {
      to: "must be the invoice's client email or your own",
    }),
    new BusinessRuleError(NOT_SENT_YET),
    new BusinessRuleError(CANCELLED_NO_EMAIL),
    new RateLimitedError(invoiceEmailPolicy.message, 3600),
    notOwner,
    invoiceNotFound,
  ],
});
