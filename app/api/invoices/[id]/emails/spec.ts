import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { invoiceEmailsSerializer } from "@/lib/serializers/email";
import { invoiceNotFound, notOwner } from "../../../common-errors";

export const listInvoiceEmails = operation({
  method: "GET",
  path: "/api/invoices/{id}/emails",
  operationId: "listInvoiceEmails",
  tag: "Invoices",
  summary: "Emails about the invoice",
  description:
    "What was emailed about the invoice, newest first: the invoice email (on send and each resend), reminders, receipts and payment notices, each with its recipient, subject, state (`pending`, `sent`, `failed`, `skipped`), attempts, the SMTP server's last answer and when it was sent. `configured` is false when the server has no `SMTP_URL` (nothing is sent).",
  auth: "authed",
  scope: ["invoices:read"],
  params: idPath,
  responses: [{ status: 200, description: "The emails", serializer: invoiceEmailsSerializer }],
  errors: [notOwner, invoiceNotFound],
});
