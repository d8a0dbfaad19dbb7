import { EMAIL_KINDS, EMAIL_STATUSES } from "@/db/schema/billing";
import { z } from "@/lib/zod";
import { id, int, timestamp, wire } from "./wire";

/** Email responses (docs/decisions.md, Email): the same in both forms. */

export const cronEmailsResult = wire(
  "CronEmailsResult",
  z.object({
    attempted: int,
    sent: int,
    retrying: int,
    failed: int,
    skipped: int.meta({ description: "Closed unsent because SMTP_URL is not set" }),
    more: z.boolean().meta({ description: "Work was left for another pass" }),
  }),
);

export const invoiceEmail = z
  .object({
    id,
    kind: z.enum(EMAIL_KINDS),
    to: z.string().meta({ example: "client@example.com" }),
    subject: z.string(),
    status: z.enum(EMAIL_STATUSES).meta({
      description:
        "`pending` (queued or retrying), `sent` (accepted by the SMTP server), `failed` (rejected with a 5xx answer, or still failing 24 h after queueing), `skipped` (not sent: email is not configured)",
    }),
    attempts: int,
    lastError: z.string().nullable().meta({ description: "The SMTP server's last answer" }),
    nextAttemptAt: timestamp.nullable().meta({ description: "While pending: the next attempt" }),
    sentAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: "InvoiceEmail" });

export const invoiceEmails = wire(
  "InvoiceEmails",
  z.object({
    configured: z.boolean().meta({
      description: "False when the server has no SMTP_URL: no email is sent at all",
    }),
    emails: z.array(invoiceEmail).meta({ description: "Newest first" }),
  }),
);

export const resendInvoiceEmailBody = z
  .object({
    to: z
      .string()
      .max(254)
      .optional()
      .meta({ description: "One address; default: the invoice's clientEmail" }),
  })
  .strict()
  .meta({ id: "ResendInvoiceEmail" });

export const queuedEmail = wire(
  "QueuedEmail",
  z.object({
    email: invoiceEmail,
    configured: z.boolean().meta({
      description: "False when the server has no SMTP_URL: the email is recorded as skipped",
    }),
  }),
);
