import { and, asc, eq, gt, inArray, isNotNull, isNull, lte } from "drizzle-orm";
import { emailMessages, invoices, profiles } from "@/db/schema";
import {
  dueReminderOffset,
  REMINDED_STATUSES,
  REMINDER_OFFSET_MAX,
  REMINDER_OFFSET_MIN,
} from "@/lib/domain/reminders";
import { reminderWhenIn, t } from "@/lib/i18n";
import type { ServiceContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import { enqueueEmail, isSingleAddress } from "@/lib/services/email/outbox";
import { unsubscribeUrl } from "@/lib/services/email/unsubscribe";

const DAY_MS = 86_400_000;

/**
 * Queues the reminders that are due (docs/decisions.md, Reminders and receipts): for each sent,
 * unpaid invoice with a due date (not cancelled, deleted or unsubscribed), its offsets (the
 * invoice's `reminders`, else the profile's `defaultReminders`) give at most one reminder to
 * queue now (`dueReminderOffset`: the latest whose moment has come, after the invoice was
 * sent), keyed `reminder:<invoiceId>:<offset>` so each rule is queued once ever. Invoices are
 * scanned in id order in bounded batches, each claimed with FOR UPDATE SKIP LOCKED in its own
 * transaction: runs from several processes at once skip each other's rows, and the key makes
 * a second queueing of one rule a no-op anyway. Only invoices whose due date is within the
 * offsets' range of now (±61 days) are read.
 */
export async function sendReminders(
  ctx: Pick<ServiceContext, "db" | "config" | "now">,
  opts: { batchSize?: number } = {},
): Promise<{ queued: number }> {
  const batchSize = opts.batchSize ?? 200;
  const now = ctx.now();
  const from = new Date(now.getTime() - (REMINDER_OFFSET_MAX + 1) * DAY_MS);
  const to = new Date(now.getTime() - (REMINDER_OFFSET_MIN - 1) * DAY_MS);
  let cursor = "";
  let queued = 0;
  for (;;) {
    const batch = await withTransaction(ctx.db, async (tx) => {
      const rows = await tx
        .select({
          id: invoices.id,
          wallet: invoices.freelancerWallet,
          invoiceNumber: invoices.invoiceNumber,
          clientEmail: invoices.clientEmail,
          dueDate: invoices.dueDate,
          sentAt: invoices.sentAt,
          reminders: invoices.reminders,
          language: invoices.language,
          defaults: profiles.defaultReminders,
        })
        .from(invoices)
        .leftJoin(profiles, eq(profiles.wallet, invoices.freelancerWallet))
        .where(
          and(
            gt(invoices.id, cursor),
            eq(invoices.kind, "INVOICE"),
            eq(invoices.emailClient, true),
            inArray(invoices.status, [...REMINDED_STATUSES]),
            isNull(invoices.deletedAt),
            isNull(invoices.remindersStoppedAt),
            isNotNull(invoices.sentAt),
            gt(invoices.dueDate, from),
            lte(invoices.dueDate, to),
          ),
        )
        .orderBy(asc(invoices.id))
        .limit(batchSize)
        .for("update", { of: invoices, skipLocked: true });
      const due = rows.flatMap((r) => {
        const offsets = r.reminders ?? r.defaults ?? [];
        const offset =
          r.dueDate && r.sentAt && isSingleAddress(r.clientEmail)
            ? dueReminderOffset(offsets, r.dueDate, r.sentAt, now)
            : null;
        return offset === null ? [] : [{ ...r, offset, key: `reminder:${r.id}:${offset}` }];
      });
      const done = new Set(
        due.length === 0
          ? []
          : (
              await tx
                .select({ key: emailMessages.dedupeKey })
                .from(emailMessages)
                .where(
                  inArray(
                    emailMessages.dedupeKey,
                    due.map((d) => d.key),
                  ),
                )
            ).map((m) => m.key),
      );
      let made = 0;
      for (const d of due) {
        if (done.has(d.key)) continue;
        const written = await enqueueEmail(
          tx,
          {
            wallet: d.wallet,
            invoiceId: d.id,
            kind: "reminder",
            dedupeKey: d.key,
            to: d.clientEmail,
            // In the invoice's language (docs/decisions.md, Languages).
            subject: t(d.language, "email.reminder.subject", {
              number: d.invoiceNumber,
              when: reminderWhenIn(d.language, d.offset),
            }),
            payload: { offset: d.offset, unsubscribeUrl: unsubscribeUrl(ctx.config, d.id) },
          },
          now,
        );
        if (written) made++;
      }
      return { count: rows.length, last: rows.at(-1)?.id, made };
    });
    queued += batch.made;
    if (batch.count < batchSize || !batch.last) break;
    cursor = batch.last;
  }
  return { queued };
}
