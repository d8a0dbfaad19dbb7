import {
  deliverDueEmails,
  type EmailContext,
  type EmailDeliveryCounts,
  type EmailDeliveryOptions,
} from "@/lib/services/email/deliver";

/**
 * One pass of the email job (the worker every EMAIL_INTERVAL_MS below, and /api/cron/emails):
 * send the outbox's due messages. The rules live in lib/services/email/deliver.ts.
 * `more`: work was left for another pass (the worker runs again at once).
 */
export function deliverEmails(
  ctx: EmailContext,
  opts: EmailDeliveryOptions = {},
): Promise<EmailDeliveryCounts> {
  return deliverDueEmails(ctx, opts);
}

/** Pause of the worker's email loop between passes with nothing left to send. */
export const EMAIL_INTERVAL_MS = 5000;
