import { and, eq, isNull } from "drizzle-orm";
import { emailMessages, invoices } from "@/db/schema";
import type { Config } from "@/lib/config";
import { NotFoundError } from "@/lib/domain/errors";
import type { ServiceContext } from "../context";
import { withTransaction } from "../db";
import { signId, verifySignedId } from "../signed-ids";

// Unsubscribe links (docs/decisions.md, Reminders and receipts): `<invoiceId>.<mac>`, the mac
// an HMAC-SHA256 of the invoice id under JWT_SECRET (the server secret sessions are signed
// with; a purpose prefix keeps the two uses apart). No expiry: the link in an old email
// still works. It only ever stops reminders of that one invoice.

export const UNSUBSCRIBE_NOT_FOUND = "Unsubscribe link not found";

const PURPOSE = "unsubscribe:v1";

export const unsubscribeToken = (config: Pick<Config, "jwtSecret">, invoiceId: string) =>
  signId(config.jwtSecret, PURPOSE, invoiceId);

/** {APP_URL}/api/unsubscribe/<token>: the footer link and the List-Unsubscribe header. */
export const unsubscribeUrl = (config: Pick<Config, "jwtSecret" | "appUrl">, invoiceId: string) =>
  `${config.appUrl}/api/unsubscribe/${unsubscribeToken(config, invoiceId)}`;

/** The invoice id a token was made for, or null when it is not one of ours. */
export function verifyUnsubscribeToken(
  config: Pick<Config, "jwtSecret">,
  token: string,
): string | null {
  return verifySignedId(config.jwtSecret, PURPOSE, token);
}

export type UnsubscribeTarget = {
  invoiceId: string;
  invoiceNumber: string;
  sender: string;
  stoppedAt: Date | null;
};

/** What the confirmation page shows; 404 for a bad token or an invoice that is gone. */
export async function unsubscribeTarget(
  ctx: Pick<ServiceContext, "db" | "config">,
  token: string,
): Promise<UnsubscribeTarget> {
  const invoiceId = verifyUnsubscribeToken(ctx.config, token);
  if (!invoiceId) throw new NotFoundError(UNSUBSCRIBE_NOT_FOUND);
  const [row] = await ctx.db
    .select({
      invoiceNumber: invoices.invoiceNumber,
      freelancerName: invoices.freelancerName,
      freelancerCompany: invoices.freelancerCompany,
      stoppedAt: invoices.remindersStoppedAt,
    })
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), isNull(invoices.deletedAt)))
    .limit(1);
  if (!row) throw new NotFoundError(UNSUBSCRIBE_NOT_FOUND);
  return {
    invoiceId,
    invoiceNumber: row.invoiceNumber,
    sender: row.freelancerName ?? row.freelancerCompany ?? "the sender",
    stoppedAt: row.stoppedAt,
  };
}

/**
 * Stops the invoice's reminders: sets remindersStoppedAt (kept from the first time: the
 * call is idempotent) and skips its reminders still queued, in one transaction.
 */
export async function stopReminders(
  ctx: Pick<ServiceContext, "db" | "config" | "now">,
  token: string,
): Promise<UnsubscribeTarget> {
  const target = await unsubscribeTarget(ctx, token);
  const now = ctx.now();
  await withTransaction(ctx.db, async (tx) => {
    await tx
      .update(invoices)
      .set({ remindersStoppedAt: now })
      .where(and(eq(invoices.id, target.invoiceId), isNull(invoices.remindersStoppedAt)));
    await skipQueuedReminders(tx, target.invoiceId);
  });
  return { ...target, stoppedAt: target.stoppedAt ?? now };
}

/** Marks the invoice's reminders not yet delivered as skipped (paid, unsubscribed). */
export async function skipQueuedReminders(
  db: ServiceContext["db"],
  invoiceId: string,
): Promise<void> {
  await db
    .update(emailMessages)
    .set({ status: "skipped" })
    .where(
      and(
        eq(emailMessages.invoiceId, invoiceId),
        eq(emailMessages.kind, "reminder"),
        eq(emailMessages.status, "pending"),
      ),
    );
}
