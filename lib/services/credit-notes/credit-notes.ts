import { and, asc, count, desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { creditNoteCounters, creditNotes, invoices, refunds } from "@/db/schema";
import {
  type CreditRequest,
  computeCredit,
  formatCreditNoteNumber,
  type PriorCredit,
  uncredited,
} from "@/lib/domain/credit-note";
import {
  BusinessRuleError,
  ConflictError,
  NotFoundError,
  ValidationError,
} from "@/lib/domain/errors";
import { amountUnit, invoiceAmountDue } from "@/lib/domain/fiat";
import { isPayable, transition } from "@/lib/domain/invoice-state";
import { sumAmounts, toStroops } from "@/lib/domain/money";
import { CREDIT_NOTE_NOT_FOUND } from "@/lib/domain/not-found";
import { taxInCurrency } from "@/lib/domain/tax";
import { t } from "@/lib/i18n";
import { isId, newId } from "@/lib/ids";
import { SEARCH_RANK_LIMIT } from "@/lib/schemas/common";
import { keyNetworkCondition, keySees } from "@/lib/services/auth/key-network";
import { type AuthedContext, actorOf } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import { applyTransition } from "@/lib/services/invoices/lifecycle";
import {
  assertOwner,
  type InvoiceRow,
  loadLineItems,
  lockInvoiceForOwner,
} from "@/lib/services/invoices/store";
import {
  countMatches,
  isBroad,
  searchCandidates,
  searchFilter,
  searchScore,
  searchTerms,
} from "@/lib/services/search";
import { queueCreditNoteEmail } from "./credit-note-email";
import { creditNoteLanguage } from "./language";

// Credit notes (docs/decisions.md, Credit notes): issued for a sent invoice under its row lock,
// numbered in the wallet's own gap-free CN- series, written with the invoice's amountCredited,
// its audit entry CREDITED, the event credit_note.created and the client's email, all in one
// transaction.

export type CreditNoteRow = typeof creditNotes.$inferSelect;

export { CREDIT_NOTE_NOT_FOUND };
export const NOT_SENT = "Only a sent invoice can be credited";
export const LINK_NOT_CREDITED = "A payment link cannot be credited";
export const REFUND_NOT_OF_INVOICE = "refundId must be a refund of this invoice";
export const REFUND_ALREADY_CREDITED = "This refund already has a credit note";
/** What a credit note that leaves nothing due on an unpaid invoice cancels it with. */
export const CREDITED_IN_FULL = "Credited in full";

export type CreateCreditNoteInput = CreditRequest & { reason: string; refundId?: string };

/** POST /api/invoices/:id/credit-notes: the owner credits a sent invoice. */
export function createCreditNote(
  ctx: AuthedContext,
  invoiceId: string,
  input: CreateCreditNoteInput,
): Promise<CreditNoteRow & { invoiceNumber: string }> {
  return withTransaction(ctx.db, async (tx) => {
    const invoice = await lockInvoiceForOwner(tx, invoiceId, ctx);
    const { note } = await issueCreditNote(tx, ctx, invoice, input, { settle: true });
    return { ...note, invoiceNumber: invoice.invoiceNumber };
  });
}

/**
 * Issues a credit note for `invoice`, which the caller has locked in `tx`. `settle`: a credit
 * note that leaves nothing due on a payable invoice closes it, CANCELLED when nothing was paid,
 * PAID otherwise (a cancel's own credit note does not: the cancel has closed it already).
 */
export async function issueCreditNote(
  tx: DbOrTx,
  ctx: AuthedContext,
  invoice: InvoiceRow,
  input: CreateCreditNoteInput,
  opts: { settle: boolean; at?: Date },
): Promise<{ note: CreditNoteRow; invoice: InvoiceRow }> {
  if (invoice.kind !== "INVOICE") throw new BusinessRuleError(LINK_NOT_CREDITED);
  transition(invoice.status, "credit"); // DRAFT: 400, "Only a sent invoice can be credited..."
  if (!invoice.sentAt) throw new BusinessRuleError(NOT_SENT);
  const now = opts.at ?? ctx.now();
  const [lineItems, prior] = await Promise.all([
    loadLineItems(tx, invoice.id),
    tx
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.invoiceId, invoice.id))
      .orderBy(asc(creditNotes.createdAt)),
  ]);
  const credit = computeCredit({ ...invoice, lineItems }, prior as PriorCredit[], input);
  const refundId = input.refundId ? await linkableRefund(tx, invoice, input.refundId) : null;

  const taxed =
    invoice.taxCurrency && invoice.taxExchangeRate
      ? taxInCurrency(credit.taxBreakdown, invoice.taxExchangeRate)
      : null;
  const number = formatCreditNoteNumber(await takeNextNumber(tx, invoice.freelancerWallet));
  const [note] = await tx
    .insert(creditNotes)
    .values({
      id: newId(),
      wallet: invoice.freelancerWallet,
      number,
      invoiceId: invoice.id,
      kind: credit.kind,
      reason: input.reason,
      lines: credit.lines,
      subtotal: credit.subtotal,
      discount: credit.discount,
      taxBreakdown: credit.taxBreakdown,
      taxAmount: credit.taxAmount,
      total: credit.total,
      unit: amountUnit(invoice),
      taxCurrency: taxed ? invoice.taxCurrency : null,
      taxExchangeRate: taxed ? invoice.taxExchangeRate : null,
      taxAmountInTaxCurrency: taxed?.taxAmount ?? null,
      taxBreakdownInTaxCurrency: taxed?.breakdown ?? null,
      refundId,
      createdAt: now,
    })
    .returning();

  const actor = actorOf(ctx);
  let row = await applyTransition(tx, invoice, "credit", {
    actor,
    at: now,
    set: { amountCredited: sumAmounts([invoice.amountCredited, note.total]) },
    changes: {
      creditNote: { id: note.id, number: note.number, total: note.total, unit: note.unit },
      ...(refundId ? { refundId } : {}),
    },
    creditNote: { ...note, refundId: note.refundId },
  });
  if (opts.settle && isPayable(row.status) && toStroops(invoiceAmountDue(row)) === 0n) {
    // Nothing left to pay: an unpaid invoice is cancelled, a partly paid one is paid.
    row =
      toStroops(row.amountPaid) === 0n
        ? await applyTransition(tx, row, "cancel", {
            actor,
            at: now,
            changes: { reason: CREDITED_IN_FULL },
            reason: CREDITED_IN_FULL,
          })
        : await applyTransition(tx, row, "pay", { actor, at: now, creditNote: note });
  }
  await queueCreditNoteEmail(tx, ctx.config, row, note, now);
  return { note, invoice: row };
}

/** The refund to link: one of this invoice's, not linked to another credit note yet. */
async function linkableRefund(tx: DbOrTx, invoice: InvoiceRow, id: string): Promise<string> {
  const [refund] = isId(id)
    ? await tx
        .select({ id: refunds.id, invoiceId: refunds.invoiceId })
        .from(refunds)
        .where(eq(refunds.id, id))
    : [];
  if (!refund || refund.invoiceId !== invoice.id) {
    throw new NotFoundError(REFUND_NOT_OF_INVOICE, { refundId: REFUND_NOT_OF_INVOICE });
  }
  const [taken] = await tx
    .select({ id: creditNotes.id })
    .from(creditNotes)
    .where(eq(creditNotes.refundId, id));
  if (taken)
    throw new ConflictError(REFUND_ALREADY_CREDITED, { refundId: REFUND_ALREADY_CREDITED });
  return refund.id;
}

/**
 * Counts the wallet's credit note counter up by one (from 1) and locks its row until the
 * transaction ends: concurrent credit notes of one wallet queue here, and a rollback gives the
 * number back, so the series has no gap and no duplicate (like invoice numbers, store.ts).
 */
async function takeNextNumber(tx: DbOrTx, wallet: string): Promise<bigint> {
  const [row] = await tx
    .insert(creditNoteCounters)
    .values({ wallet, last: 1n })
    .onConflictDoUpdate({
      target: creditNoteCounters.wallet,
      set: { last: sql`${creditNoteCounters.last} + 1` },
    })
    .returning({ last: creditNoteCounters.last });
  return BigInt(row.last);
}

/**
 * A cancel of a sent invoice, in its transaction (lib/services/invoices/change-status.ts): a
 * full credit note of whatever is still uncredited, so the issued number is corrected, not
 * left dangling. A draft, or an invoice credited in full already, has nothing to credit.
 */
export async function creditOnCancel(
  tx: DbOrTx,
  ctx: AuthedContext,
  cancelled: InvoiceRow,
  reason: string | null | undefined,
  at: Date,
): Promise<InvoiceRow> {
  if (cancelled.kind !== "INVOICE" || !cancelled.sentAt) return cancelled;
  const lineItems = await loadLineItems(tx, cancelled.id);
  const prior = await tx.select().from(creditNotes).where(eq(creditNotes.invoiceId, cancelled.id));
  if (uncredited({ ...cancelled, lineItems }, prior as PriorCredit[]).total.lte("0"))
    return cancelled;
  // In the invoice's language, as the credit note that prints it ("Rechnung storniert").
  const cancelReason = t(creditNoteLanguage(cancelled), "creditNote.cancelReason");
  const text = reason?.trim() ? `${cancelReason}: ${reason.trim()}` : cancelReason;
  const { invoice } = await issueCreditNote(
    tx,
    ctx,
    cancelled,
    { reason: text.slice(0, 500) },
    {
      settle: false,
      at,
    },
  );
  return invoice;
}

export type CreditNoteWithInvoice = { note: CreditNoteRow; invoice: InvoiceRow };

/** GET /api/credit-notes/:id (and its PDF): the caller's credit note and its invoice. */
export async function getCreditNote(
  ctx: AuthedContext,
  id: string,
): Promise<CreditNoteWithInvoice> {
  const [found] = isId(id)
    ? await ctx.db
        .select({ note: creditNotes, invoice: invoices })
        .from(creditNotes)
        .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
        .where(eq(creditNotes.id, id))
    : [];
  if (!found) throw new NotFoundError(CREDIT_NOTE_NOT_FOUND);
  assertOwner(found.invoice, ctx);
  if (!keySees(ctx, found.invoice)) throw new NotFoundError(CREDIT_NOTE_NOT_FOUND);
  return found;
}

export type CreditNotePage = {
  creditNotes: (CreditNoteRow & { invoiceNumber: string })[];
  total: number;
  /** False for a broad search (docs/decisions.md, Search): `total` is then a bound. */
  totalExact: boolean;
  limit: number;
  offset: number;
  hasMore: boolean;
};

/** `details.starting_after` of the 400 for a cursor that is not one of the caller's credit notes. */
export const NO_SUCH_CREDIT_NOTE = "No such credit note";

/**
 * GET /api/credit-notes: the caller's credit notes, newest first (createdAt, id), in `offset`
 * pages or keyset pages `starting_after` one of the caller's (as the invoice list). `q` keeps
 * those that match and ranks them (lib/services/search.ts; docs/decisions.md, Search): the order
 * is then (rank, createdAt, id) descending, the cursor's rank for this `q` read in SQL. A broad
 * search (more than SEARCH_RANK_LIMIT matches) is not ranked nor counted past the limit: newest
 * first, each row checked with searchFilter.
 */
export async function listCreditNotes(
  ctx: AuthedContext,
  query: {
    limit?: number;
    offset?: number;
    invoiceId?: string;
    q?: string;
    starting_after?: string;
    defaultLimit: number;
  },
): Promise<CreditNotePage> {
  const limit = query.limit ?? query.defaultLimit;
  const terms = query.q === undefined ? null : await searchTerms(ctx.db, query.q, ctx.wallet);
  const text = sql`${creditNotes.searchText}`;
  const where = and(
    eq(creditNotes.wallet, ctx.wallet),
    ...keyNetworkCondition(ctx),
    ...(query.invoiceId ? [eq(creditNotes.invoiceId, query.invoiceId)] : []),
    ...(terms ? [searchFilter(text, terms)] : []),
  );
  // A search reads the rows its keys give (lib/services/search.ts) and checks them.
  const candidates =
    terms &&
    searchCandidates(ctx.db, creditNotes, creditNotes.wallet, creditNotes.searchText, terms);
  // A search's matches, counted up to one past the limit: its total unless it is broad.
  const matches =
    candidates === null
      ? null
      : await countMatches(
          ctx.db,
          sql`${candidates} inner join ${invoices} on ${invoices.id} = ${creditNotes.invoiceId}`,
          where,
        );
  const broad = matches !== null && isBroad(matches);
  const rank = broad ? null : terms;
  const score = (of: SQL) => (rank ? [searchScore(of, rank)] : []);
  // A broad search reads its page newest first, checking each row.
  const notes = candidates && !broad ? candidates : creditNotes;
  const countOf = async (cond: SQL | undefined) =>
    (
      await ctx.db
        .select({ n: count() })
        .from(notes)
        .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
        .where(cond)
    )[0].n;
  let pageWhere = where;
  let upTo: SQL | undefined;
  if (query.starting_after !== undefined) {
    // The cursor: one of the caller's credit notes (an unknown id, another wallet's and, for an
    // API key, one of its other network's alike).
    const [found] = isId(query.starting_after)
      ? await ctx.db
          .select({ id: creditNotes.id })
          .from(creditNotes)
          .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
          .where(
            and(
              eq(creditNotes.id, query.starting_after),
              eq(creditNotes.wallet, ctx.wallet),
              ...keyNetworkCondition(ctx),
            ),
          )
      : [];
    if (!found) {
      throw new ValidationError("Invalid request", { starting_after: NO_SUCH_CREDIT_NOTE });
    }
    const c = (what: SQL) => sql`(select ${what} from ${creditNotes} c where c.id = ${found.id})`;
    const mine = [...score(text), creditNotes.createdAt, creditNotes.id];
    const its = [...score(sql.raw("c.search_text")), sql.raw("c.created_at"), sql.raw("c.id")];
    const vs = (op: string) =>
      sql`(${sql.join(mine, sql`, `)}) ${sql.raw(op)} (${sql.join(
        its.map((w) => c(sql`${w}`)),
        sql`, `,
      )})`;
    pageWhere = and(where, vs("<"));
    // A broad search has no total to take the rows after the cursor from: its offset is the
    // matching rows up to the cursor, counted.
    if (broad) upTo = and(where, vs(">="));
  }
  const [rows, n, rest] = await Promise.all([
    ctx.db
      .select({ note: getTableColumns(creditNotes), invoiceNumber: invoices.invoiceNumber })
      .from(notes)
      .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
      .where(pageWhere)
      .orderBy(
        ...score(text).map((s) => desc(s)),
        desc(creditNotes.createdAt),
        desc(creditNotes.id),
      )
      // A broad search reads one more row to know whether more follow.
      .limit(broad ? limit + 1 : limit)
      .offset(query.starting_after === undefined ? (query.offset ?? 0) : 0),
    matches !== null ? Math.min(matches, SEARCH_RANK_LIMIT) : countOf(where),
    query.starting_after === undefined ? null : countOf(broad ? upTo : pageWhere),
  ]);
  const offset = rest === null ? (query.offset ?? 0) : broad ? rest : n - rest;
  return {
    creditNotes: rows.slice(0, limit).map((r) => ({ ...r.note, invoiceNumber: r.invoiceNumber })),
    total: n,
    totalExact: !broad,
    limit,
    offset,
    hasMore: broad ? rows.length > limit : offset + rows.length < n,
  };
}

/** An invoice's credit notes, oldest first (the owner view's `creditNotes`). */
export function invoiceCreditNotes(db: DbOrTx, invoiceId: string): Promise<CreditNoteRow[]> {
  return db
    .select()
    .from(creditNotes)
    .where(eq(creditNotes.invoiceId, invoiceId))
    .orderBy(asc(creditNotes.createdAt), asc(creditNotes.number));
}
