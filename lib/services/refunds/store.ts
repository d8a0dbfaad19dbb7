import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { refunds } from "@/db/schema";
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
