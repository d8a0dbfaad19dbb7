import { and, asc, desc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { invoices, payments } from "@/db/schema";
import { paymentPageUrl } from "@/lib/config";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/domain/errors";
import {
  CHECKOUT_TTL_MS,
  checkoutAmount,
  checkoutNumber,
  hasReceived,
  holdUntil,
  paymentLimit,
  paymentTakesPlace,
  takesCheckouts,
} from "@/lib/domain/link-payments";
import { AMOUNT_SCALE, computeTotals, FIAT_SCALE } from "@/lib/domain/money";
import { isId } from "@/lib/ids";
import { linkHoldPerLinkPolicy, linkHoldPolicy } from "@/lib/ratelimit/policies";
import type { LinkCheckoutInput } from "@/lib/schemas/links";
import { keySees } from "@/lib/services/auth/key-network";
import type { AuthedContext, ServiceContext } from "../context";
import { withTransaction } from "../db";
import { ANONYMOUS_ACTOR, recordCreation } from "../invoices/lifecycle";
import { type InvoiceRow, insertSupplied, type PaymentRow } from "../invoices/store";
import {
  heldCheckout,
  insertLinkRow,
  LINK_INACTIVE,
  LINK_NOT_FOUND,
  type LinkView,
  linkById,
  linkStatus,
  PAID_CHECKOUT,
  RECEIVED_CHECKOUT,
  withPayments,
} from "./links";

// A reusable or open-amount link is never paid itself: like a Stripe Checkout Session per
// visit, each payer's checkout is a child LINK row with its own memo, amount and short
// expiry, paid through the usual machinery (docs/decisions.md, Payment links).

export const LINK_PAID_DIRECTLY = "This link is paid directly: open its checkout page";
export const LINK_FULL = "This link has received all the payments it accepts";
export const LINK_BUSY =
  "Every remaining payment of this link is being made by other payers. Try again in a few minutes.";

/**
 * Starts a payer's checkout of a reusable or open-amount link: checks the amount and that a
 * place may still be had (the link row is locked, so checkouts of one link queue), and inserts
 * the child link the payer then pays, numbered in the link's own series. The checkout holds
 * no place yet: a payer's pay-intent with a sender takes one (`holdPlace`).
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
        paid: sql<number>`(count(*) filter (where ${PAID_CHECKOUT} and ${invoices.deletedAt} is null))::int`,
        taken: sql<number>`(count(*) filter (where (${RECEIVED_CHECKOUT} or ${heldCheckout(now)}) and ${invoices.deletedAt} is null))::int`,
        made: sql<number>`count(*)::int`,
      })
      .from(invoices)
      .where(eq(invoices.parentLinkId, link.id));
    const status = linkStatus({ ...link, paymentsCount: places.paid }, now);
    if (status === "EXPIRED" || status === "CANCELLED") throw new NotFoundError(LINK_NOT_FOUND);
    // Deactivated by its owner: no new checkout; those made before stay payable.
    if (link.linkDeactivatedAt) throw new ConflictError(LINK_INACTIVE);
    const limit = paymentLimit(link);
    if (status === "PAID") throw new ConflictError(LINK_FULL);
    if (limit !== null && places.taken >= limit) throw new ConflictError(LINK_BUSY);

    const expiresAt = Math.min(
      now.getTime() + CHECKOUT_TTL_MS,
      link.linkExpiresAt?.getTime() ?? Infinity,
    );
    const child = await insertLinkRow(
      tx,
      link.freelancerWallet,
      {
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
      },
      // The link's own series (INV-0042-1, INV-0042-2, ...), never the wallet's INV- counter:
      // the next number after the checkouts made so far, past any the wallet supplied itself.
      async (values) => {
        for (let sequence = places.made + 1; sequence <= places.made + 100; sequence++) {
          const row = await insertSupplied(
            tx,
            values(checkoutNumber(link.invoiceNumber, sequence)),
          );
          if (row) return row;
        }
        throw new ConflictError("Invoice number already exists");
      },
    );
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

/** The link of a checkout whose payments are limited, locked when `lock`; null otherwise. */
async function limitedParent(db: DbOrTx, checkout: InvoiceRow, lock: boolean) {
  if (checkout.kind !== "LINK" || !checkout.parentLinkId) return null;
  const query = db.select().from(invoices).where(eq(invoices.id, checkout.parentLinkId));
  const [link] = lock ? await query.for("update") : await query;
  const limit = link ? paymentLimit(link) : null;
  return link && limit !== null ? { link, limit } : null;
}

/** The places the link's other checkouts take at `at`: received for good, and held. */
async function otherPlaces(db: DbOrTx, linkId: string, checkoutId: string, at: Date) {
  const [places] = await db
    .select({
      received: sql<number>`(count(*) filter (where ${RECEIVED_CHECKOUT}))::int`,
      held: sql<number>`(count(*) filter (where ${heldCheckout(at)}))::int`,
    })
    .from(invoices)
    .where(
      and(
        eq(invoices.parentLinkId, linkId),
        ne(invoices.id, checkoutId),
        isNull(invoices.deletedAt),
      ),
    );
  return places;
}

/** 409 when the link's other checkouts take every place. */
function assertPlaceFree(limit: number, places: { received: number; held: number }) {
  if (places.received >= limit) throw new ConflictError(LINK_FULL);
  if (places.received + places.held >= limit) throw new ConflictError(LINK_BUSY);
}

/** A checkout that holds its place at `at`: it received money, or its hold runs. */
const holdsPlace = (checkout: InvoiceRow, at: Date) =>
  hasReceived(checkout) ||
  (checkout.linkHeldUntil !== null && checkout.linkHeldUntil.getTime() > at.getTime());

/**
 * Before a pay-intent with a sender builds anything: when it would take a new place of a
 * limited link, 409 if none is free, then the holds of the caller's address (in all, and on
 * this link) count against their limits (429 past them). Nothing is held yet.
 */
export async function checkBeforeHold(ctx: ServiceContext, checkout: InvoiceRow): Promise<void> {
  const now = ctx.now();
  if (holdsPlace(checkout, now)) return;
  const parent = await limitedParent(ctx.db, checkout, false);
  if (!parent) return;
  assertPlaceFree(parent.limit, await otherPlaces(ctx.db, parent.link.id, checkout.id, now));
  // The link's own bound first: a refusal there does not use up the address's overall one.
  await ctx.limitCaller?.(linkHoldPerLinkPolicy(ctx.config), `link:${parent.link.id}`);
  await ctx.limitCaller?.(linkHoldPolicy(ctx.config));
}

/**
 * A payer committed (pay-intent with a sender): the checkout, locked by the caller, holds one
 * of its limited link's places until it expires, or while the transaction just built can
 * land (`holdUntil`); 409 when the other checkouts take every place. The link row is locked
 * after the checkout's, in the order recording takes them.
 */
export async function holdPlace(
  tx: DbOrTx,
  checkout: InvoiceRow,
  transactionValidUntil: Date,
  now: Date,
): Promise<void> {
  if (hasReceived(checkout)) return;
  const parent = await limitedParent(tx, checkout, true);
  if (!parent) return;
  if (!holdsPlace(checkout, now)) {
    assertPlaceFree(parent.limit, await otherPlaces(tx, parent.link.id, checkout.id, now));
  }
  await tx
    .update(invoices)
    .set({
      linkHeldUntil: holdUntil(
        checkout.linkExpiresAt,
        transactionValidUntil,
        checkout.linkHeldUntil,
      ),
    })
    .where(eq(invoices.id, checkout.id));
}

/**
 * For the recorder, the checkout locked: whether a payment that landed at `paidAt` finds no
 * place of its limited link (`paymentTakesPlace`), so it is recorded unapplied `link_full`.
 * Locks the link row: recordings of one link's checkouts queue, and the count of applied
 * payments never passes `maxPayments`. False for anything but such a checkout with nothing
 * received yet.
 */
export async function checkoutIsFull(
  tx: DbOrTx,
  checkout: InvoiceRow,
  paidAt: Date,
  now: Date,
): Promise<boolean> {
  if (hasReceived(checkout)) return false;
  const parent = await limitedParent(tx, checkout, true);
  if (!parent) return false;
  const places = await otherPlaces(tx, parent.link.id, checkout.id, now);
  return !paymentTakesPlace({
    limit: parent.limit,
    othersReceived: places.received,
    othersHeld: places.held,
    held: checkout.linkHeldUntil !== null && checkout.linkHeldUntil.getTime() >= paidAt.getTime(),
  });
}

/** One record of a link's payments: the row paid, with every payment recorded for it. */
export type LinkPaymentRecord = InvoiceRow & { received: PaymentRow[] };

/**
 * The owner's paid records of a link: its checkouts that received money (paid, or paid in
 * part) or any payment at all (one recorded unapplied, `link_full` say), and the link itself
 * when a payment reached its own memo (`link_parent`); newest payment first, each with its
 * recorded payments. For a single-use fixed-amount link, the link itself once it received
 * one. Checkouts that received nothing are left out.
 */
export async function listLinkPayments(
  ctx: AuthedContext,
  id: string,
): Promise<{ linkId: string; link: LinkView; payments: LinkPaymentRecord[] }> {
  if (!isId(id)) throw new NotFoundError(LINK_NOT_FOUND);
  const [link] = await ctx.db.select().from(invoices).where(linkById(id)).limit(1);
  if (!link) throw new NotFoundError(LINK_NOT_FOUND);
  // Another wallet's link is 403 (docs/decisions.md, Ownership); the other network's, 404.
  if (link.freelancerWallet !== ctx.wallet) throw new ForbiddenError("Unauthorized");
  if (!keySees(ctx, link)) throw new NotFoundError(LINK_NOT_FOUND);
  const anyPayment = sql`exists (select 1 from ${payments} where ${payments.invoiceId} = ${invoices.id})`;
  const lastPayment = sql`(select max(${payments.confirmedAt}) from ${payments} where ${payments.invoiceId} = ${invoices.id})`;
  const rows = await ctx.db
    .select()
    .from(invoices)
    .where(
      and(
        takesCheckouts(link)
          ? or(eq(invoices.parentLinkId, link.id), eq(invoices.id, link.id))
          : eq(invoices.id, link.id),
        isNull(invoices.deletedAt),
        or(RECEIVED_CHECKOUT, anyPayment),
      ),
    )
    .orderBy(
      sql`coalesce(${invoices.paidAt}, ${lastPayment}) desc nulls last`,
      desc(invoices.createdAt),
    )
    .limit(1000);
  const received = rows.length
    ? await ctx.db
        .select()
        .from(payments)
        .where(
          inArray(
            payments.invoiceId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(payments.confirmedAt), asc(payments.operationIndex))
    : [];
  const [view] = await withPayments(ctx.db, [link]);
  return {
    linkId: link.id,
    link: view,
    payments: rows.map((row) => ({
      ...row,
      received: received.filter((p) => p.invoiceId === row.id),
    })),
  };
}
