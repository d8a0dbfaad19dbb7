import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { invoices } from "@/db/schema";
import { paymentPageUrl } from "@/lib/config";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/domain/errors";
import {
  CHECKOUT_TTL_MS,
  checkoutAmount,
  paymentLimit,
  takesCheckouts,
} from "@/lib/domain/link-payments";
import { AMOUNT_SCALE, computeTotals, FIAT_SCALE } from "@/lib/domain/money";
import { isId } from "@/lib/ids";
import type { LinkCheckoutInput } from "@/lib/schemas/links";
import { keySees } from "@/lib/services/auth/key-network";
import type { AuthedContext, ServiceContext } from "../context";
import { withTransaction } from "../db";
import { ANONYMOUS_ACTOR, recordCreation } from "../invoices/lifecycle";
import type { InvoiceRow } from "../invoices/store";
import {
  insertLinkRow,
  LINK_NOT_FOUND,
  type LinkView,
  linkById,
  linkStatus,
  PAID_CHECKOUT,
  RECEIVED_CHECKOUT,
} from "./links";

// A reusable or open-amount link is never paid itself: like a Stripe Checkout Session per
// visit, each payer's checkout is a child LINK row with its own memo, amount and short
// expiry, paid through the usual machinery (docs/decisions.md, Payment links).

export const LINK_PAID_DIRECTLY = "This link is paid directly: open its checkout page";
export const LINK_FULL = "This link has received all the payments it accepts";
export const LINK_BUSY =
  "Every remaining payment of this link is being made by other payers. Try again in a few minutes.";

/**
 * Starts a payer's checkout of a reusable or open-amount link: checks the amount, takes one
 * of the link's remaining payments (the link row is locked, so racing checkouts queue and
 * the last place goes to exactly one), and inserts the child link the payer then pays.
 */
export async function startCheckout(
  ctx: ServiceContext,
  id: string,
  input: LinkCheckoutInput,
): Promise<LinkView> {
  if (!isId(id)) throw new NotFoundError(LINK_NOT_FOUND);
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const [link] = await tx
      .select()
      .from(invoices)
      .where(linkById(id, isNull(invoices.parentLinkId)))
      .for("update");
    if (!link) throw new NotFoundError(LINK_NOT_FOUND);
    if (!takesCheckouts(link)) throw new ValidationError(LINK_PAID_DIRECTLY);
    const amount = checkoutAmount(link, input.amount);
    const [places] = await tx
      .select({
        paid: sql<number>`(count(*) filter (where ${PAID_CHECKOUT}))::int`,
        // Paid, paid in part, or still open: each holds one of the link's payments.
        held: sql<number>`(count(*) filter (where ${RECEIVED_CHECKOUT} or (${invoices.status} in ('PENDING', 'PROCESSING', 'FAILED') and ${invoices.linkExpiresAt} > ${now.toISOString()}::timestamptz)))::int`,
      })
      .from(invoices)
      .where(and(eq(invoices.parentLinkId, link.id), isNull(invoices.deletedAt)));
    const status = linkStatus({ ...link, paymentsCount: places.paid }, now);
    if (status === "EXPIRED" || status === "CANCELLED") throw new NotFoundError(LINK_NOT_FOUND);
    const limit = paymentLimit(link);
    if (status === "PAID") throw new ConflictError(LINK_FULL);
    if (limit !== null && places.held >= limit) throw new ConflictError(LINK_BUSY);

    const expiresAt = Math.min(
      now.getTime() + CHECKOUT_TTL_MS,
      link.linkExpiresAt?.getTime() ?? Infinity,
    );
    const child = await insertLinkRow(tx, link.freelancerWallet, {
      title: link.title,
      description: link.description,
      totals: computeTotals(
        { lineItems: [{ quantity: "1", rate: amount }] },
        { scale: link.priceCurrency ? FIAT_SCALE : AMOUNT_SCALE },
      ),
      currency: link.currency,
      priceCurrency: link.priceCurrency,
      quoteTtlMinutes: link.quoteTtlMinutes,
      networkPassphrase: link.networkPassphrase,
      linkReference: link.linkReference,
      linkExpiresAt: new Date(expiresAt),
      activateNewAccounts: link.activateNewAccounts,
      linkOpenAmount: false,
      linkReusable: false,
      linkMaxPayments: null,
      linkMinAmount: null,
      parentLinkId: link.id,
      now,
    });
    // The audit entry only: a payer's visit announces nothing; its payment sends link.paid.
    await recordCreation(tx, child, {
      actor: ANONYMOUS_ACTOR,
      at: now,
      changes: { kind: "LINK", parentLinkId: link.id },
      checkoutUrl: paymentPageUrl(ctx.config.appUrl, child.id),
      withoutEvents: true,
    });
    return { ...child, paymentsCount: 0, amountReceived: child.amountPaid };
  });
}

/**
 * The owner's paid records of a link: its checkouts that received money (paid, or paid in
 * part), newest payment first; for a single-use fixed-amount link, the link itself once paid.
 * Unpaid checkouts are not payments and are left out.
 */
export async function listLinkPayments(
  ctx: AuthedContext,
  id: string,
): Promise<{ linkId: string; payments: InvoiceRow[] }> {
  if (!isId(id)) throw new NotFoundError(LINK_NOT_FOUND);
  const [link] = await ctx.db.select().from(invoices).where(linkById(id)).limit(1);
  if (!link) throw new NotFoundError(LINK_NOT_FOUND);
  // Another wallet's link is 403 (docs/decisions.md, Ownership); the other network's, 404.
  if (link.freelancerWallet !== ctx.wallet) throw new ForbiddenError("Unauthorized");
  if (!keySees(ctx, link)) throw new NotFoundError(LINK_NOT_FOUND);
  const payments = await ctx.db
    .select()
    .from(invoices)
    .where(
      and(
        takesCheckouts(link) ? eq(invoices.parentLinkId, link.id) : eq(invoices.id, link.id),
        isNull(invoices.deletedAt),
        RECEIVED_CHECKOUT,
      ),
    )
    .orderBy(sql`${invoices.paidAt} desc nulls last`, desc(invoices.createdAt))
    .limit(1000);
  return { linkId: link.id, payments };
}
