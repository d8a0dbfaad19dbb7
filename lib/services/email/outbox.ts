import type { DbOrTx } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { newId } from "@/lib/ids";

export type EmailKind = (typeof emailMessages.$inferInsert)["kind"];

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
  const rows = await db
    .insert(emailMessages)
    .values({ id: newId(), ...email, status: "pending", nextAttemptAt: now, createdAt: now })
    .onConflictDoNothing({ target: emailMessages.dedupeKey })
    .returning({ id: emailMessages.id });
  return rows.length > 0;
}
