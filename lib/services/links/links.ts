import { and, desc, eq, isNull } from "drizzle-orm";
import { invoices } from "@/db/schema";
import { paymentPageUrl } from "@/lib/config";
import { NotFoundError, ValidationError } from "@/lib/domain/errors";
import { DEFAULT_QUOTE_TTL_MINUTES } from "@/lib/domain/fiat";
import {
  AMOUNT_SCALE,
  AMOUNT_SPEC,
  computeTotals,
  FIAT_SCALE,
  parseDecimal,
  toStroops,
} from "@/lib/domain/money";
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
import { type InvoiceRow, insertGenerated, replaceLineItems } from "../invoices/store";

export const LINK_NOT_FOUND = "Link not found";
const DEFAULT_TTL_MS = 24 * 3600_000;
const MAX_TTL_MS = 90 * 24 * 3600_000;

export type LinkStatus = "ACTIVE" | "PAID" | "EXPIRED" | "CANCELLED";

/** A payment link is a single-use invoice of kind LINK, created PENDING (docs/decisions.md). */
export async function createLink(ctx: AuthedContext, input: CreateLinkInput): Promise<InvoiceRow> {
  const now = ctx.now();
  const expiresAt = input.expiresAt
    ? new Date(input.expiresAt)
    : new Date(now.getTime() + DEFAULT_TTL_MS);
  if (expiresAt.getTime() <= now.getTime()) {
    throw new ValidationError("Invalid request", { expiresAt: "must be in the future" });
  }
  if (expiresAt.getTime() > now.getTime() + MAX_TTL_MS) {
    throw new ValidationError("Invalid request", { expiresAt: "must be at most 90 days ahead" });
  }
  // A fiat price is whole cents (docs/decisions.md, Fiat pricing).
  if (input.priceCurrency)
    parseDecimal(input.amount, { ...AMOUNT_SPEC, scale: FIAT_SCALE }, "amount");
  const totals = computeTotals(
    { lineItems: [{ quantity: "1", rate: input.amount }] },
    { scale: input.priceCurrency ? FIAT_SCALE : AMOUNT_SCALE },
  );
  if (input.activateNewAccounts) {
    if (input.asset !== "XLM") {
      throw new ValidationError("Invalid request", { activateNewAccounts: "only for XLM links" });
    }
    if (toStroops(totals.total) < toStroops("1")) {
      throw new ValidationError("Invalid request", {
        activateNewAccounts: "the amount must be at least 1 XLM to activate an account",
      });
    }
  }
  const title = input.title ?? "Payment link";
  const networkPassphrase =
    resolveNetwork(input.network, input.networkPassphrase) ?? defaultPassphrase(ctx);
  assertKeyNetwork(ctx, networkPassphrase);

  return withTransaction(ctx.db, async (tx) => {
    const id = newId();
    const row = await insertGenerated(tx, ctx.wallet, (invoiceNumber) => ({
      id,
      kind: "LINK",
      invoiceNumber,
      status: initialStatus("LINK"),
      freelancerWallet: ctx.wallet,
      clientName: "Payment link",
      clientEmail: "",
      title,
      description: input.description ?? null,
      subtotal: totals.subtotal,
      taxRate: totals.taxRate,
      taxAmount: totals.taxAmount,
      discount: totals.discount,
      total: totals.total,
      currency: input.asset,
      priceCurrency: input.priceCurrency ?? null,
      quoteTtlMinutes: input.quoteTtlMinutes ?? DEFAULT_QUOTE_TTL_MINUTES,
      networkPassphrase,
      linkReference: input.reference ?? null,
      linkExpiresAt: expiresAt,
      activateNewAccounts: input.activateNewAccounts ?? false,
      sentAt: now,
      createdAt: now,
      updatedAt: now,
    }));
    const [item] = totals.lineItems;
    await replaceLineItems(tx, id, [{ id: newId(), description: title, ...item }]);
    await recordCreation(tx, row, {
      actor: actorOf(ctx),
      at: now,
      changes: { kind: "LINK" },
      checkoutUrl: paymentPageUrl(ctx.config.appUrl, id),
    });
    return row;
  });
}

/** ACTIVE until paid, cancelled or past its expiry (even before the expiry job has run). */
export function linkStatus(row: InvoiceRow, now: Date): LinkStatus {
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

/**
 * The public link: 404 `Link not found` when unknown, deleted, or expired without payment
 * (a paid link stays visible as a receipt).
 */
export async function getLink(ctx: ServiceContext, id: string): Promise<InvoiceRow> {
  if (!isId(id)) throw new NotFoundError(LINK_NOT_FOUND);
  const [row] = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, id), eq(invoices.kind, "LINK"), isNull(invoices.deletedAt)))
    .limit(1);
  if (!row || linkStatus(row, ctx.now()) === "EXPIRED") throw new NotFoundError(LINK_NOT_FOUND);
  return row;
}

export async function listLinks(ctx: AuthedContext): Promise<InvoiceRow[]> {
  return ctx.db
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.freelancerWallet, ctx.wallet),
        eq(invoices.kind, "LINK"),
        isNull(invoices.deletedAt),
        ...keyNetworkCondition(ctx),
      ),
    )
    .orderBy(desc(invoices.createdAt))
    .limit(100);
}
