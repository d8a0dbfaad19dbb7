import type { DbOrTx } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { ValidationError } from "@/lib/domain/errors";
import { newId } from "@/lib/ids";

export type EmailKind = (typeof emailMessages.$inferInsert)["kind"];

/**
 * The kinds sent TO the freelancer (their notifications), not to their client: rendered in the
 * notification layout (emails/notification-layout.tsx), without the profile's client-facing
 * footer, a Reply-To or the invoice's "Stop reminders" link and List-Unsubscribe header
 * (docs/decisions.md, Email).
 */
export const TO_FREELANCER_KINDS: ReadonlySet<EmailKind> = new Set<EmailKind>(["payment_notice"]);

/** The service's own letters (the client portal's sign-in links): no freelancer's frame. */
export const SERVICE_KINDS: ReadonlySet<EmailKind> = new Set<EmailKind>(["portal_link"]);

export type OutboxEmail = {
  /** The freelancer the message is about (owner of the invoice, or the profile). */
  wallet: string;
  invoiceId: string | null;
  kind: EmailKind;
  /**
   * At most one message per key, e.g. `invoice:<id>:sent:<n>`, `reminder:<id>:<offset>`,
   * `receipt:<paymentId>`, `notice:<paymentId>`; a second enqueue with the key does nothing.
   */
  dedupeKey: string;
  to: string;
  subject: string;
  payload: Record<string, unknown>;
};

/**
 * Queues an email in the caller's transaction (docs/decisions.md, Email): it is written with the
 * state change it tells about, or not at all, and delivered later by the worker or
 * /api/cron/emails. Returns false when the key was queued before (nothing written).
 */
export async function enqueueEmail(db: DbOrTx, email: OutboxEmail, now: Date): Promise<boolean> {
  assertSafeHeaders(email);
  const rows = await db
    .insert(emailMessages)
    .values({ id: newId(), ...email, status: "pending", nextAttemptAt: now, createdAt: now })
    .onConflictDoNothing({ target: emailMessages.dedupeKey })
    .returning({ id: emailMessages.id });
  return rows.length > 0;
}

/** One address: no line breaks, no list, no display name (names go in address objects). */
const SINGLE_ADDRESS = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+\.[^\s@<>,;:"()[\]\\]+$/;

/** True for one plain email address (what `to` must be; docs/decisions.md, Email). */
export const isSingleAddress = (value: string) => value.length <= 254 && SINGLE_ADDRESS.test(value);

/**
 * Header injection (docs/decisions.md, Email): a recipient with a line break or several
 * addresses, or a subject with a line break, is refused here (400 at the API) and never
 * reaches SMTP.
 */
export function assertSafeHeaders(email: Pick<OutboxEmail, "to" | "subject">): void {
  if (!isSingleAddress(email.to)) {
    throw new ValidationError("The recipient must be one email address", {
      to: "must be one email address",
    });
  }
  if (/[\r\n\0]/.test(email.subject) || email.subject.length > 300 || !email.subject.trim()) {
    throw new ValidationError("The subject must be one line", { subject: "must be one line" });
  }
}

/** User text made fit for a subject: whitespace runs (line breaks included) become one space. */
export const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
