import { and, desc, eq, gt, like } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { emailMessages } from "@/db/schema";
import type { Config } from "@/lib/config";
import { BusinessRuleError, RateLimitedError, ValidationError } from "@/lib/domain/errors";
import { formatPriced } from "@/lib/format";
import { t } from "@/lib/i18n";
import { localizeAmount } from "@/lib/i18n/format";
import { newId } from "@/lib/ids";
import { invoiceEmailPolicy } from "@/lib/ratelimit/policies";
import type { AuthedContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import {
  assertOwner,
  getLiveInvoice,
  type InvoiceRow,
  lockInvoiceForOwner,
} from "@/lib/services/invoices/store";
import { getProfile } from "@/lib/services/profile/profile";
import { NOT_CONFIGURED } from "./deliver";
import { enqueueEmail, oneLine } from "./outbox";
import type { EmailMessageRow } from "./render";

export const NO_CLIENT_EMAIL = "The invoice has no client email: give `to`";
export const RECIPIENT_NOT_ALLOWED =
  "The invoice can be emailed only to its client's email or to your own";
export const NOT_SENT_YET = "Send the invoice before emailing it";
export const CANCELLED_NO_EMAIL = "A cancelled invoice is not emailed";

/**
 * Queues the invoice email in the caller's transaction (docs/decisions.md, Email) and returns
 * its row. Without SMTP_URL the row is closed at once as skipped ("not sent: email is not
 * configured"), so no page ever says it was sent.
 */
export async function queueInvoiceEmail(
  tx: DbOrTx,
  config: Config,
  invoice: InvoiceRow,
  opts: { now: Date; dedupeKey: string; to: string; resend?: boolean },
): Promise<EmailMessageRow> {
  const profile = await getProfile(tx, invoice.freelancerWallet);
  const sender =
    profile?.displayName ??
    profile?.company ??
    invoice.freelancerName ??
    invoice.freelancerCompany ??
    config.serviceName;
  await enqueueEmail(
    tx,
    {
      wallet: invoice.freelancerWallet,
      invoiceId: invoice.id,
      kind: "invoice",
      dedupeKey: opts.dedupeKey,
      to: opts.to,
      // In the invoice's language (docs/decisions.md, Languages).
      subject: oneLine(
        t(invoice.language, "email.invoice.subject", {
          number: invoice.invoiceNumber,
          sender,
          total: localizeAmount(formatPriced(invoice.total, invoice), invoice.language),
        }),
      ).slice(0, 250),
      payload: {
        toName: opts.to === invoice.clientEmail ? (invoice.clientName ?? "") : "",
        ...(opts.resend ? { resend: true } : {}),
      },
    },
    opts.now,
  );
  const m = emailMessages;
  if (!config.email.smtpUrl) {
    await tx
      .update(m)
      .set({ status: "skipped", lastError: NOT_CONFIGURED })
      .where(and(eq(m.dedupeKey, opts.dedupeKey), eq(m.status, "pending")));
  }
  const [row] = await tx.select().from(m).where(eq(m.dedupeKey, opts.dedupeKey));
  return row;
}

/** On send (DRAFT -> PENDING), in its transaction: the client's email when `emailClient`. */
export async function queueEmailOnSend(
  tx: DbOrTx,
  config: Config,
  sent: InvoiceRow,
  now: Date,
): Promise<void> {
  if (!sent.emailClient || !sent.clientEmail) return;
  await queueInvoiceEmail(tx, config, sent, {
    now,
    dedupeKey: `invoice:${sent.id}:sent`,
    to: sent.clientEmail,
  });
}

/**
 * POST /api/invoices/:id/email: the owner emails the invoice again, to its client or to `to`.
 * At most invoiceEmailPolicy's 10 per hour per invoice, counted on the outbox under the
 * invoice's row lock, so concurrent requests cannot pass the limit together.
 */
export async function resendInvoiceEmail(
  ctx: AuthedContext,
  id: string,
  body: { to?: string },
): Promise<{ configured: boolean; email: EmailMessageRow }> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const invoice = await lockInvoiceForOwner(tx, id, ctx);
    if (invoice.status === "DRAFT") throw new BusinessRuleError(NOT_SENT_YET);
    if (invoice.status === "CANCELLED") throw new BusinessRuleError(CANCELLED_NO_EMAIL);
    const to = body.to?.trim() || invoice.clientEmail;
    if (!to) throw new ValidationError(NO_CLIENT_EMAIL, { to: "required" });
    // Only to the invoice's client or to the owner: the service's mail is never sent to an
    // address of the caller's choice (docs/decisions.md, Email).
    const profile = await getProfile(tx, invoice.freelancerWallet);
    const allowed = [invoice.clientEmail, invoice.freelancerEmail, profile?.email];
    if (!allowed.some((a) => a && a.trim().toLowerCase() === to.toLowerCase())) {
      throw new ValidationError(RECIPIENT_NOT_ALLOWED, {
        to: "must be the invoice's client email or your own",
      });
    }
    const m = emailMessages;
    const windowStart = new Date(now.getTime() - invoiceEmailPolicy.windowSeconds * 1000);
    const recent = await tx
      .select({ createdAt: m.createdAt })
      .from(m)
      .where(
        and(
          eq(m.invoiceId, invoice.id),
          like(m.dedupeKey, `invoice:${invoice.id}:resend:%`),
          gt(m.createdAt, windowStart),
        ),
      )
      .orderBy(desc(m.createdAt));
    if (recent.length >= invoiceEmailPolicy.limit) {
      const oldest = recent[invoiceEmailPolicy.limit - 1].createdAt;
      const retryAfter = Math.ceil((oldest.getTime() - windowStart.getTime()) / 1000);
      throw new RateLimitedError(invoiceEmailPolicy.message, Math.max(1, retryAfter));
    }
    const email = await queueInvoiceEmail(tx, ctx.config, invoice, {
      now,
      dedupeKey: `invoice:${invoice.id}:resend:${newId()}`,
      to,
      resend: true,
    });
    return { configured: Boolean(ctx.config.email.smtpUrl), email };
  });
}

/** GET /api/invoices/:id/emails: every message about the invoice, newest first (owner). */
export async function listInvoiceEmails(
  ctx: AuthedContext,
  id: string,
): Promise<{ configured: boolean; emails: EmailMessageRow[] }> {
  const invoice = await getLiveInvoice(ctx.db, id);
  assertOwner(invoice, ctx);
  const emails = await ctx.db
    .select()
    .from(emailMessages)
    .where(eq(emailMessages.invoiceId, invoice.id))
    .orderBy(desc(emailMessages.createdAt), desc(emailMessages.id));
  return { configured: Boolean(ctx.config.email.smtpUrl), emails };
}
