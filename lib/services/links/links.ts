import { and, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { invoices } from "@/db/schema";
import { paymentPageUrl } from "@/lib/config";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/domain/errors";
import { DEFAULT_QUOTE_TTL_MINUTES } from "@/lib/domain/fiat";
import { parseLinkAmount, paymentLimit, takesCheckouts } from "@/lib/domain/link-payments";
import {
  AMOUNT_SCALE,
  AMOUNT_SPEC,
  computeTotals,
  FIAT_SCALE,
  parseDecimal,
  type Totals,
  toStroops,
} from "@/lib/domain/money";
import { LINK_NOT_FOUND } from "@/lib/domain/not-found";
import { isId, newId } from "@/lib/ids";
import type { CreateLinkInput } from "@/lib/schemas/links";
import {
  assertKeyNetwork,
  defaultPassphrase,
  keyNetworkCondition,
} from "@/lib/services/auth/key-network";
import { actorOf } from "@/lib/services/context";
import type { AuthedContext, ServiceContext } from "../context";
import { withTransaction } from "../db";
import { initialStatus, recordCreation } from "../invoices/lifecycle";
import { resolveNetwork } from "../invoices/network";
import {
  type InvoiceRow,
  insertGenerated,
  type NewInvoiceRow,
  replaceLineItems,
} from "../invoices/store";

export { LINK_NOT_FOUND };

const DEFAULT_TTL_MS = 24 * 3600_000;
const MAX_TTL_MS = 90 * 24 * 3600_000;

export type LinkStatus = "ACTIVE" | "PAID" | "EXPIRED" | "CANCELLED";

/**
 * A payment link is an invoice of kind LINK, created PENDING. A single-use fixed-amount link
 * is paid itself; a reusable or open-amount one is paid through its checkouts
 * (`./checkout.ts`; docs/decisions.md, Payment links).
 */
export async function createLink(ctx: AuthedContext, input: CreateLinkInput): Promise<LinkView> {
  const now = ctx.now();
  const shape = linkShape(input);
  // The contract's 24-hour default is a single-use link's; a reusable link, shared for many
  // payers, never expires unless `expiresAt` asks (docs/decisions.md, Payment links).
  const expiresAt = input.expiresAt
    ? checkedExpiry(input.expiresAt, now)
    : shape.linkReusable
      ? null
      : new Date(now.getTime() + DEFAULT_TTL_MS);
  // A fiat price is whole cents (docs/decisions.md, Fiat pricing).
  if (input.priceCurrency && input.amount !== undefined)
    parseDecimal(input.amount, { ...AMOUNT_SPEC, scale: FIAT_SCALE }, "amount");
  // An open amount is the payer's, at each checkout: the link itself holds zero.
  const totals =
    input.amount === undefined
      ? OPEN_AMOUNT_TOTALS
      : computeTotals(
          { lineItems: [{ quantity: "1", rate: input.amount }] },
          { scale: input.priceCurrency ? FIAT_SCALE : AMOUNT_SCALE },
        );
  if (input.activateNewAccounts) {
    if (input.asset !== "XLM") {
      throw new ValidationError("Invalid request", { activateNewAccounts: "only for XLM links" });
    }
    // An open amount is checked at each checkout (lib/domain/link-payments.ts).
    if (!shape.linkOpenAmount && toStroops(totals.total) < toStroops("1")) {
      throw new ValidationError("Invalid request", {
        activateNewAccounts: "the amount must be at least 1 XLM to activate an account",
      });
    }
  }
  const title = input.title ?? "Payment link";
  const networkPassphrase =
    resolveNetwork(input.network, input.networkPassphrase) ?? defaultPassphrase(ctx);
  assertKeyNetwork(ctx, networkPassphrase);

  const row = await withTransaction(ctx.db, async (tx) => {
    const row = await insertLinkRow(tx, ctx.wallet, {
      ...shape,
      title,
      description: input.description ?? null,
      totals,
      currency: input.asset,
      priceCurrency: input.priceCurrency ?? null,
      quoteTtlMinutes: input.quoteTtlMinutes ?? DEFAULT_QUOTE_TTL_MINUTES,
      networkPassphrase,
      linkReference: input.reference ?? null,
      linkExpiresAt: expiresAt,
      activateNewAccounts: input.activateNewAccounts ?? false,
      now,
    });
    await recordCreation(tx, row, {
      actor: actorOf(ctx),
      at: now,
      changes: { kind: "LINK" },
      checkoutUrl: paymentPageUrl(ctx.config.appUrl, row.id),
    });
    return row;
  });
  return { ...row, paymentsCount: 0, amountReceived: row.amountPaid };
}

/** An owner's `expiresAt`: in the future, at most 90 days ahead (400 naming the field). */
export function checkedExpiry(value: string, now: Date): Date {
  const expiresAt = new Date(value);
  if (expiresAt.getTime() <= now.getTime()) {
    throw new ValidationError("Invalid request", { expiresAt: "must be in the future" });
  }
  if (expiresAt.getTime() > now.getTime() + MAX_TTL_MS) {
    throw new ValidationError("Invalid request", { expiresAt: "must be at most 90 days ahead" });
  }
  return expiresAt;
}

const ZERO = "0.0000000";
const OPEN_AMOUNT_TOTALS: Totals = {
  lineItems: [{ quantity: "1.00", rate: ZERO, amount: ZERO }],
  subtotal: ZERO,
  taxRate: "0.00",
  taxAmount: ZERO,
  discount: ZERO,
  total: ZERO,
};

/** The reusable / open-amount columns from the create body, checked together. */
function linkShape(input: CreateLinkInput) {
  const linkOpenAmount = input.openAmount ?? input.minAmount !== undefined;
  if (linkOpenAmount && input.amount !== undefined) {
    throw new ValidationError("Invalid request", {
      [input.openAmount ? "amount" : "minAmount"]:
        "an open-amount link has no amount: the payer chooses it",
    });
  }
  if (input.openAmount === false && input.minAmount !== undefined) {
    throw new ValidationError("Invalid request", { minAmount: "only for open-amount links" });
  }
  if (!linkOpenAmount && input.amount === undefined) {
    throw new ValidationError("Invalid request", {
      amount: "is required (or openAmount: true to let the payer choose it)",
    });
  }
  if (input.reusable === false && input.maxPayments !== undefined) {
    throw new ValidationError("Invalid request", { maxPayments: "only for reusable links" });
  }
  const linkReusable = input.reusable ?? input.maxPayments !== undefined;
  return {
    linkOpenAmount,
    linkReusable,
    linkMaxPayments: linkReusable ? (input.maxPayments ?? null) : null,
    linkMinAmount:
      input.minAmount === undefined
        ? null
        : parseLinkAmount(input.minAmount, input.priceCurrency ?? null, "minAmount"),
  };
}

type LinkRowValues = Pick<
  NewInvoiceRow,
  | "title"
  | "description"
  | "currency"
  | "priceCurrency"
  | "quoteTtlMinutes"
  | "networkPassphrase"
  | "linkReference"
  | "linkExpiresAt"
  | "activateNewAccounts"
  | "linkOpenAmount"
  | "linkReusable"
  | "linkMaxPayments"
  | "linkMinAmount"
  | "parentLinkId"
> & { totals: Totals; now: Date };

/**
 * Inserts a PENDING LINK row and its one line. Its memo is the wallet's next number, or for a
 * checkout `numbered`'s: the checkout's own series, never the wallet's (./checkout.ts).
 */
export async function insertLinkRow(
  tx: DbOrTx,
  wallet: string,
  { totals, now, ...values }: LinkRowValues,
  numbered?: (values: (invoiceNumber: string) => NewInvoiceRow) => Promise<InvoiceRow>,
): Promise<InvoiceRow> {
  const id = newId();
  const insert = numbered ?? ((v) => insertGenerated(tx, wallet, v));
  const row = await insert((invoiceNumber) => ({
    ...values,
    id,
    kind: "LINK",
    invoiceNumber,
    status: initialStatus("LINK"),
    freelancerWallet: wallet,
    clientName: "Payment link",
    clientEmail: "",
    subtotal: totals.subtotal,
    taxRate: totals.taxRate,
    taxAmount: totals.taxAmount,
    discount: totals.discount,
    total: totals.total,
    sentAt: now,
    createdAt: now,
    updatedAt: now,
  }));
  const [item] = totals.lineItems;
  await replaceLineItems(tx, id, [{ id: newId(), description: values.title, ...item }]);
  return row;
}

/** A link with what it has received: one paid checkout per payment for a reusable link. */
export type LinkView = InvoiceRow & { paymentsCount: number; amountReceived: string };

/**
 * ACTIVE until paid, cancelled or past its expiry (even before the expiry job has run). A
 * reusable or open-amount link is PAID once its paid checkouts reach its limit.
 */
export function linkStatus(row: InvoiceRow & { paymentsCount?: number }, now: Date): LinkStatus {
  if (takesCheckouts(row) && row.status !== "CANCELLED") {
    const limit = paymentLimit(row);
    if (limit !== null && (row.paymentsCount ?? 0) >= limit) return "PAID";
    if (row.status === "PAID") return "ACTIVE";
  }
  switch (row.status) {
    case "PAID":
      return "PAID";
    case "CANCELLED":
      return "CANCELLED";
    case "EXPIRED":
      return "EXPIRED";
    default:
      return row.linkExpiresAt && row.linkExpiresAt.getTime() <= now.getTime()
        ? "EXPIRED"
        : "ACTIVE";
  }
}

/** The condition for the live (not deleted) link `id`, with `more`. */
export const linkById = (id: string, ...more: SQL[]) =>
  and(eq(invoices.id, id), eq(invoices.kind, "LINK"), isNull(invoices.deletedAt), ...more);

export const LINK_TAKES_CHECKOUTS =
  "This link is paid through a checkout: POST /api/links/{id}/checkout first";
export const LINK_INACTIVE = "This link is no longer accepting payments";

/**
 * Whether a payer may start paying this row: an expired link cannot start a new payment
 * (404; one already signed is still accepted), nor a link its owner deactivated (409; the
 * same), and a reusable or open-amount link is paid through its checkouts only (400). A
 * checkout of a deactivated link stays payable: it was made before. Invoices always pass.
 */
export function assertLinkPayable(row: InvoiceRow, now: Date): void {
  if (row.kind !== "LINK") return;
  if (linkStatus(row, now) === "EXPIRED") throw new NotFoundError(LINK_NOT_FOUND);
  if (row.linkDeactivatedAt) throw new ConflictError(LINK_INACTIVE);
  if (takesCheckouts(row)) throw new ValidationError(LINK_TAKES_CHECKOUTS);
}

/**
 * The public link: 404 `Link not found` when unknown, deleted, or expired without payment
 * (a paid link stays visible as a receipt).
 */
export async function getLink(ctx: ServiceContext, id: string): Promise<LinkView> {
  if (!isId(id)) throw new NotFoundError(LINK_NOT_FOUND);
  const [row] = await ctx.db.select().from(invoices).where(linkById(id)).limit(1);
  if (!row) throw new NotFoundError(LINK_NOT_FOUND);
  const [link] = await withPayments(ctx.db, [row]);
  if (linkStatus(link, ctx.now()) === "EXPIRED") throw new NotFoundError(LINK_NOT_FOUND);
  return link;
}

/** The caller's links, newest first; a reusable link's checkouts are its payments, not links. */
export async function listLinks(ctx: AuthedContext): Promise<LinkView[]> {
  const rows = await ctx.db
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.freelancerWallet, ctx.wallet),
        eq(invoices.kind, "LINK"),
        isNull(invoices.parentLinkId),
        isNull(invoices.deletedAt),
        ...keyNetworkCondition(ctx),
      ),
    )
    .orderBy(desc(invoices.createdAt))
    .limit(100);
  return withPayments(ctx.db, rows);
}

/** A checkout counts as a payment once PAID; its money counts once anything was applied. */
export const PAID_CHECKOUT = sql`${invoices.status} = 'PAID'`;
export const RECEIVED_CHECKOUT = sql`(${invoices.status} = 'PAID' or ${invoices.amountPaid} > 0)`;
/** A checkout whose payer committed and whose hold has not lapsed at `at` (not received). */
export const heldCheckout = (at: Date) =>
  sql`(not ${RECEIVED_CHECKOUT} and ${invoices.linkHeldUntil} > ${at.toISOString()}::timestamptz)`;

/** Adds each link's payments: its paid checkouts, or the link itself when paid directly. */
export async function withPayments(db: DbOrTx, rows: InvoiceRow[]): Promise<LinkView[]> {
  const parents = rows.filter(takesCheckouts).map((r) => r.id);
  const sums = parents.length
    ? await db
        .select({
          id: invoices.parentLinkId,
          paid: sql<number>`(count(*) filter (where ${PAID_CHECKOUT}))::int`,
          received: sql<string>`coalesce(sum(${invoices.amountPaid}), 0)::numeric(18,7)::text`,
        })
        .from(invoices)
        .where(
          and(
            inArray(invoices.parentLinkId, parents),
            isNull(invoices.deletedAt),
            RECEIVED_CHECKOUT,
          ),
        )
        .groupBy(invoices.parentLinkId)
    : [];
  const byParent = new Map(sums.map((s) => [s.id, s]));
  return rows.map((row) => {
    if (!takesCheckouts(row)) {
      return {
        ...row,
        paymentsCount: row.status === "PAID" ? 1 : 0,
        amountReceived: row.amountPaid,
      };
    }
    const sum = byParent.get(row.id);
    return {
      ...row,
      paymentsCount: sum?.paid ?? 0,
      amountReceived: sum?.received ?? "0.0000000",
    };
  });
}
