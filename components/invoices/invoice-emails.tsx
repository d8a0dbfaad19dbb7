"use client";

import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Muted } from "@/components/ui/page";
import type { useApi } from "@/lib/client/session";
import { useAction } from "@/lib/client/use-action";
import { useResource } from "@/lib/client/use-resource";
import { formatDateTime } from "@/lib/format";
import type { invoiceEmails, queuedEmail } from "@/lib/schemas/email";
import type { z } from "@/lib/zod";

type Emails = z.output<(typeof invoiceEmails)["b"]>;
type Email = Emails["emails"][number];
type Api = ReturnType<typeof useApi>;

export const NOT_CONFIGURED_TEXT =
  "Email is not configured on this server (SMTP_URL), so nothing was emailed.";

const KIND: Record<Email["kind"], string> = {
  invoice: "Invoice",
  reminder: "Reminder",
  receipt: "Receipt",
  payment_notice: "Payment notice",
  refund: "Refund",
  credit_note: "Credit note",
  quote: "Quote",
  portal_link: "Portal sign-in link",
  statement: "Statement",
};

const STATE: Record<Email["status"], { label: string; className: string }> = {
  pending: { label: "Queued", className: "bg-amber-100 text-amber-800" },
  sent: { label: "Sent", className: "bg-emerald-100 text-emerald-800" },
  failed: { label: "Failed", className: "bg-red-100 text-red-800" },
  skipped: { label: "Not sent", className: "bg-slate-200 text-slate-700" },
};

/**
 * What the page says once an invoice is sent (docs/decisions.md, Email): never that it was
 * emailed when nothing was. Reads the invoice's emails after the send.
 */
export async function sentNotice(api: Api, id: string): Promise<string> {
  const base = "Invoice sent. It can now be paid from its payment link.";
  const listed = await api<Emails>(`/api/invoices/${id}/emails`).catch(() => null);
  const email = listed?.emails.find((e) => e.kind === "invoice");
  if (!listed || !email) return base;
  if (!listed.configured) return `${base} It was not emailed: ${NOT_CONFIGURED_TEXT}`;
  return `${base} The invoice email to ${email.to} is queued.`;
}

/**
 * The invoice page's email panel: what was emailed when, its state and the SMTP server's
 * last answer, and "Email again" (POST /api/invoices/:id/email, 10 per hour per invoice).
 * Keyed by the invoice's updatedAt on the page, so it reloads after the invoice changes.
 */
export function InvoiceEmails({ id, status }: { id: string; status: string }) {
  const path = `/api/invoices/${id}/emails`;
  const { data, error, reload, api } = useResource<Emails>(path);
  const { busy, notice, run } = useAction();

  const canEmail = status !== "DRAFT" && status !== "CANCELLED";
  const resend = () =>
    run("email", async () => {
      const r = await api<z.output<(typeof queuedEmail)["b"]>>(`/api/invoices/${id}/email`, {
        method: "POST",
        body: {},
      });
      reload();
      return r.configured ? `Invoice email to ${r.email.to} queued.` : NOT_CONFIGURED_TEXT;
    });

  return (
    <Card
      title="Emails"
      actions={
        canEmail && data?.configured ? (
          <Button variant="secondary" onClick={resend} disabled={busy !== null}>
            Email again
          </Button>
        ) : null
      }
    >
      <div className="space-y-3">
        {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
        {error && <Alert>{error}</Alert>}
        {data && !data.configured && <Alert kind="info">{NOT_CONFIGURED_TEXT}</Alert>}
        {data && data.emails.length === 0 && <Muted>No email about this invoice yet.</Muted>}
        {data && data.emails.length > 0 && (
          <ul className="divide-y divide-slate-200 dark:divide-slate-700">
            {data.emails.map((e) => (
              <EmailRow key={e.id} email={e} />
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}

function EmailRow({ email }: { email: Email }) {
  const state = STATE[email.status];
  return (
    <li className="py-2 text-sm" data-testid="invoice-email">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium">
          {KIND[email.kind]} to <span className="[overflow-wrap:anywhere]">{email.to}</span>
        </span>
        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${state.className}`}>
          {state.label}
        </span>
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {email.sentAt
          ? `Sent ${formatDateTime(email.sentAt)}`
          : `Queued ${formatDateTime(email.createdAt)}`}
        {email.attempts > 1 ? ` · ${email.attempts} attempts` : ""}
        {email.status === "pending" && email.nextAttemptAt && email.attempts > 0
          ? ` · next try ${formatDateTime(email.nextAttemptAt)}`
          : ""}
      </p>
      {email.lastError && email.status !== "sent" && (
        <p className="mt-1 text-xs text-red-700 [overflow-wrap:anywhere] dark:text-red-300">
          {email.lastError}
        </p>
      )}
    </li>
  );
}
