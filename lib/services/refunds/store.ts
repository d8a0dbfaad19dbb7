import { and, eq, gt, inArray, ne, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { payments, refunds } from "@/db/schema";
import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { isId } from "@/lib/ids";

export type RefundRow = typeof refunds.$inferSelect;

export const REFUND_NOT_FOUND = "Refund not found";

/** The asset a refund sends back: the payment's, code and issuer (null for XLM). */
export const refundAsset = (r: Pick<RefundRow, "asset" | "assetIssuer">) => ({
  code: r.asset,
  issuer: r.assetIssuer,
});

/**
 * The caller's refund: an unknown id is 404 `Refund not found`, another wallet's refund 403
 * `Unauthorized` (docs/decisions.md, Ownership).
 */
export async function getOwnRefund(db: DbOrTx, id: string, wallet: string): Promise<RefundRow> {
  const [row] = isId(id) ? await db.select().from(refunds).where(eq(refunds.id, id)) : [];
  if (!row) throw new NotFoundError(REFUND_NOT_FOUND);
  if (row.wallet !== wallet) throw new ForbiddenError("Unauthorized");
  return row;
}

export type PaymentRow = typeof payments.$inferSelect;

/**
 * Locks a payment's row (every refund of it is built and sent under this lock) and reads the
 * amounts its other refunds still hold: those SUBMITTED or PENDING and not yet expired
 * (`except` leaves out the refund being sent). One rule for building and for submitting
 * (docs/decisions.md, Refunds). Null when the payment does not exist.
 */
export async function lockPaymentAndHeld(
  db: DbOrTx,
  paymentId: string,
  now: Date,
  except?: string,
): Promise<{ payment: PaymentRow; held: string[] } | null> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(eq(payments.id, paymentId))
    .for("update");
  if (!payment) return null;
  const conditions: SQL[] = [
    eq(refunds.paymentId, paymentId),
    inArray(refunds.status, ["PENDING", "SUBMITTED"]),
    gt(refunds.expiresAt, now),
  ];
  if (except) conditions.push(ne(refunds.id, except));
  const open = await db
    .select({ amount: refunds.amount })
    .from(refunds)
    .where(and(...conditions));
  return { payment, held: open.map((r) => r.amount) };
}
