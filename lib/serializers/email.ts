import type { emailMessages } from "@/db/schema";
import { asIs, sameInBothForms } from "@/lib/http/forms";
import { cronEmailsResult, invoiceEmails, queuedEmail } from "@/lib/schemas/email";

type EmailRow = typeof emailMessages.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** One outbox row as the invoice page shows it (no payload: it may hold tokens). */
export const emailView = (m: EmailRow) => ({
  id: m.id,
  kind: m.kind,
  to: m.to,
  subject: m.subject,
  status: m.status,
  attempts: m.attempts,
  lastError: m.lastError,
  nextAttemptAt: m.status === "pending" ? m.nextAttemptAt.toISOString() : null,
  sentAt: iso(m.sentAt),
  createdAt: m.createdAt.toISOString(),
});

export const cronEmailsSerializer = asIs(cronEmailsResult);

export const invoiceEmailsSerializer = sameInBothForms(
  invoiceEmails,
  (v: { configured: boolean; emails: EmailRow[] }) => ({
    configured: v.configured,
    emails: v.emails.map(emailView),
  }),
);

export const queuedEmailSerializer = sameInBothForms(
  queuedEmail,
  (v: { configured: boolean; email: EmailRow }) => ({
    configured: v.configured,
    email: emailView(v.email),
  }),
);
