import { isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { invoices } from "@/db/schema";
import {
  BusinessRuleError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from "@/lib/domain/errors";
import { isId } from "@/lib/ids";
import { LINK_EDITABLE, type UpdateLinkInput } from "@/lib/schemas/links";
import { keySees } from "@/lib/services/auth/key-network";
import { actorOf } from "@/lib/services/context";
import type { AuthedContext } from "../context";
import { withTransaction } from "../db";
import { applyTransition, type InvoiceChanges } from "../invoices/lifecycle";
import type { InvoiceRow } from "../invoices/store";
import {
  checkedExpiry,
  LINK_NOT_FOUND,
  type LinkView,
  linkById,
  linkStatus,
  withPayments,
} from "./links";

// The owner manages a link after creating it (docs/decisions.md, Payment links, Managing a
// link): its title, description, reference and expiry, and whether it takes new payments.
// Every change is one audit entry UPDATED with the diff (trigger `editLink`), and no event.

export const LINK_NOT_ACTIVE = (status: string) =>
  `Only an active link can be changed. Current status: ${status}`;
export const FIXED_AT_CREATION = "cannot be changed: create a new link";
export const SINGLE_USE_EXPIRES = "a single-use link always expires: give a date";

type Scalar = string | boolean | null;

/** PATCH /api/links/{id}: the title, description, reference and expiry of an active link. */
export async function updateLink(
  ctx: AuthedContext,
  id: string,
  input: UpdateLinkInput,
): Promise<LinkView> {
  const fixed = Object.keys(input).filter((k) => !(LINK_EDITABLE as readonly string[]).includes(k));
  if (fixed.length > 0) {
    throw new ValidationError(
      "Invalid request",
      Object.fromEntries(fixed.map((k) => [k, FIXED_AT_CREATION])),
    );
  }
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const link = await lockOwnedLink(tx, ctx, id);
    await assertActive(tx, link, now);
    const next: Record<string, Scalar | Date | undefined> = {
      title: input.title === undefined ? undefined : (input.title ?? "Payment link"),
      description: input.description,
      linkReference: input.reference,
      linkExpiresAt:
        input.expiresAt === undefined
          ? undefined
          : input.expiresAt === null
            ? noExpiry(link)
            : checkedExpiry(input.expiresAt, now),
    };
    const set: Record<string, Scalar | Date> = {};
    const changes: Record<string, { from: Scalar; to: Scalar }> = {};
    for (const [column, value] of Object.entries(next)) {
      if (value === undefined) continue;
      const before = link[column as keyof InvoiceRow] as Scalar | Date;
      if (wire(before) === wire(value)) continue;
      set[column] = value;
      changes[API_NAMES[column] ?? column] = { from: wire(before), to: wire(value) };
    }
    return record(tx, ctx, link, set as InvoiceChanges, changes, now);
  });
}

/** Stops new payments (checkouts, pay-intents); a second call changes nothing. */
export async function deactivateLink(ctx: AuthedContext, id: string): Promise<LinkView> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const link = await lockOwnedLink(tx, ctx, id);
    if (link.linkDeactivatedAt) return view(tx, link);
    await assertActive(tx, link, now);
    return record(
      tx,
      ctx,
      link,
      { linkDeactivatedAt: now },
      { active: { from: true, to: false } },
      now,
    );
  });
}

/** Takes new payments again (an expired link stays expired); a second call changes nothing. */
export async function reactivateLink(ctx: AuthedContext, id: string): Promise<LinkView> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const link = await lockOwnedLink(tx, ctx, id);
    if (!link.linkDeactivatedAt) return view(tx, link);
    return record(
      tx,
      ctx,
      link,
      { linkDeactivatedAt: null },
      { active: { from: false, to: true } },
      now,
    );
  });
}

const API_NAMES: Record<string, string> = {
  linkReference: "reference",
  linkExpiresAt: "expiresAt",
};

function noExpiry(link: InvoiceRow): null {
  if (!link.linkReusable) {
    throw new ValidationError("Invalid request", { expiresAt: SINGLE_USE_EXPIRES });
  }
  return null;
}

const wire = (v: Scalar | Date): Scalar => (v instanceof Date ? v.toISOString() : v);

async function view(tx: DbOrTx, row: InvoiceRow): Promise<LinkView> {
  const [link] = await withPayments(tx, [row]);
  return link;
}

/** An edit that changes nothing writes nothing. */
async function record(
  tx: DbOrTx,
  ctx: AuthedContext,
  link: InvoiceRow,
  set: InvoiceChanges,
  changes: Record<string, unknown>,
  now: Date,
): Promise<LinkView> {
  if (Object.keys(changes).length === 0) return view(tx, link);
  const row = await applyTransition(tx, link, "editLink", {
    actor: actorOf(ctx),
    at: now,
    set,
    changes,
  });
  return view(tx, row);
}

/**
 * The caller's link `id`, locked: 404 for unknown, deleted, or a payer's checkout (managed
 * through its link); 403 another wallet's; 404 an API key's other network.
 */
async function lockOwnedLink(tx: DbOrTx, ctx: AuthedContext, id: string): Promise<InvoiceRow> {
  if (!isId(id)) throw new NotFoundError(LINK_NOT_FOUND);
  const [link] = await tx
    .select()
    .from(invoices)
    .where(linkById(id, isNull(invoices.parentLinkId)))
    .for("update");
  if (!link) throw new NotFoundError(LINK_NOT_FOUND);
  if (link.freelancerWallet !== ctx.wallet) throw new ForbiddenError("Unauthorized");
  if (!keySees(ctx, link)) throw new NotFoundError(LINK_NOT_FOUND);
  return link;
}

/** 400 unless the link is ACTIVE: a paid, expired or cancelled link is a record. */
async function assertActive(tx: DbOrTx, link: InvoiceRow, now: Date): Promise<void> {
  const status = linkStatus(await view(tx, link), now);
  if (status !== "ACTIVE") throw new BusinessRuleError(LINK_NOT_ACTIVE(status));
}
