import { and, asc, count, desc, eq, getTableColumns, isNull, type SQL, sql } from "drizzle-orm";
import { salesQuotes } from "@/db/schema";
import { ForbiddenError, ValidationError } from "@/lib/domain/errors";
import {
  defaultValidUntil,
  formatQuoteNumber,
  quoteHasExpired,
  quoteTransition,
  VALID_UNTIL_PAST,
} from "@/lib/domain/quote-state";
import { normalizeTaxId } from "@/lib/domain/tax-id";
import { newId } from "@/lib/ids";
import { SEARCH_RANK_LIMIT } from "@/lib/schemas/common";
import { storedAddress } from "@/lib/schemas/parties";
import {
  type CreateQuoteInput,
  type ListQuotesQuery,
  type QuoteInvoiceBody,
  type QuoteSortField,
  quoteInvoiceBodySchema,
  type UpdateQuoteInput,
} from "@/lib/schemas/quotes";
import {
  assertKeyNetwork,
  defaultPassphrase,
  keyPassphrase,
} from "@/lib/services/auth/key-network";
import { savedClientDetails } from "@/lib/services/clients/saved-client";
import { type AuthedContext, actorOf, type ServiceContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import { priceInvoice, WALLET_MISMATCH } from "@/lib/services/invoices/create-invoice";
import { resolveNetwork } from "@/lib/services/invoices/network";
import { invoiceDefaults, invoiceLanguage } from "@/lib/services/profile/defaults";
import { getProfile } from "@/lib/services/profile/profile";
import {
  countMatches,
  isBroad,
  searchCandidates,
  searchFilter,
  searchScore,
  searchTerms,
} from "@/lib/services/search";
import { expireDueQuotes, expireIfDue } from "./expire";
import { applyQuoteTransition, recordQuoteAudit } from "./lifecycle";
import { queueQuoteEmail } from "./quote-email";
import {
  assertQuoteOwner,
  getLiveQuote,
  loadOwnerQuote,
  lockQuoteForOwner,
  type OwnerQuote,
  type QuoteRow,
  takeNextQuoteNumber,
} from "./store";

// Quotes (docs/decisions.md, Quotes). A quote keeps the create-invoice body its invoice will be
// made from (`body`), priced by the invoice's own rule (`priceInvoice`), and copies of what lists
// and pages read. The client's accept and decline are in accept.ts.

type TemplateInput = Omit<CreateQuoteInput, "validUntil" | "onAccept">;

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

function assertValidUntil(validUntil: string, now: Date): void {
  if (validUntil < dayOf(now)) {
    throw new ValidationError(VALID_UNTIL_PAST, { validUntil: VALID_UNTIL_PAST });
  }
}

/** A body its schema refuses: 400 naming each field, as the request's own parse does. */
function parseBody(value: unknown): QuoteInvoiceBody {
  const result = quoteInvoiceBodySchema.safeParse(value);
  if (result.success) return result.data;
  const details: Record<string, string> = {};
  for (const issue of result.error.issues)
    details[issue.path.join(".") || "body"] ??= issue.message;
  throw new ValidationError("Invalid request", details);
}

/**
 * The invoice's body as the quote keeps it: the saved client's details written in (so the
 * invoice is the one the client accepted, whatever happens to the saved client), line items
 * under `lineItems`, the network's passphrase, the language and the freelancer's details chosen
 * now by the invoice's own rules (invoiceLanguage, invoiceDefaults).
 */
async function resolveBody(
  ctx: AuthedContext,
  input: TemplateInput,
  now: Date,
): Promise<QuoteInvoiceBody> {
  if (input.freelancerWallet && input.freelancerWallet !== ctx.wallet) {
    throw new ForbiddenError(WALLET_MISMATCH);
  }
  const networkPassphrase =
    resolveNetwork(input.network, input.networkPassphrase) ?? defaultPassphrase(ctx);
  assertKeyNetwork(ctx, networkPassphrase);
  const profile = await getProfile(ctx.db, ctx.wallet);
  const saved = input.clientId
    ? await savedClientDetails(ctx.db, ctx.wallet, input.clientId)
    : null;
  const defaults = invoiceDefaults(profile, input, now);
  const {
    clientId: _clientId,
    items,
    amount: _amount,
    network: _network,
    freelancerWallet: _wallet,
    ...rest
  } = input;
  const clientPostalAddress = storedAddress(
    saved ? saved.clientPostalAddress : input.clientPostalAddress,
  );
  const clientTax = normalizeTaxId(
    saved ? saved.clientTaxId : input.clientTaxId,
    saved ? saved.clientTaxScheme : input.clientTaxScheme,
    clientPostalAddress?.country,
    "clientTaxId",
  );
  return parseBody({
    ...rest,
    ...(saved
      ? {
          clientName: saved.clientName,
          clientEmail: saved.clientEmail,
          clientCompany: saved.clientCompany,
          clientAddress: saved.clientAddress,
          clientIsBusiness: saved.clientIsBusiness,
          buyerReference: input.buyerReference ?? saved.buyerReference ?? null,
        }
      : {}),
    clientPostalAddress,
    clientTaxId: clientTax.taxId,
    clientTaxScheme: clientTax.scheme,
    lineItems: input.lineItems ?? items,
    networkPassphrase,
    language: invoiceLanguage(input.language, saved, profile),
    freelancerName: defaults.freelancerName,
    freelancerEmail: defaults.freelancerEmail,
    freelancerCompany: defaults.freelancerCompany,
  });
}

/** The columns that follow from the body: copies and the totals (the invoice's own rule). */
function columnsOf(body: QuoteInvoiceBody, number: string) {
  const { totals, lineItems } = priceInvoice(body);
  return {
    body: body as Record<string, unknown>,
    clientName: body.clientName ?? "",
    clientEmail: body.clientEmail ?? "",
    title: body.title ?? `Quote ${number}`,
    language: body.language ?? "en",
    currency: body.currency ?? "XLM",
    priceCurrency: body.priceCurrency ?? null,
    networkPassphrase: body.networkPassphrase ?? "",
    lineItems: lineItems.map((l) => ({
      id: l.id,
      description: l.description,
      quantity: l.quantity,
      rate: l.rate,
      amount: l.amount,
      taxRate: l.taxRate ?? null,
      taxCategory: l.taxCategory ?? null,
      exemptionReason: l.exemptionReason ?? null,
      exemptionReasonCode: l.exemptionReasonCode ?? null,
    })),
    subtotal: totals.subtotal,
    taxRate: totals.taxRate,
    taxAmount: totals.taxAmount,
    discount: totals.discount,
    total: totals.total,
    taxBreakdown: totals.taxBreakdown,
  };
}

/** POST /api/quotes: a DRAFT numbered in the wallet's own QT- series. */
export async function createQuote(
  ctx: AuthedContext,
  input: CreateQuoteInput,
): Promise<OwnerQuote> {
  const now = ctx.now();
  const validUntil = input.validUntil ?? defaultValidUntil(now);
  assertValidUntil(validUntil, now);
  // The Form A cross-check (`amount`) and the totals' bounds, before anything is written.
  priceInvoice(input);
  const { validUntil: _v, onAccept, ...template } = input;
  const body = await resolveBody(ctx, template, now);
  return withTransaction(ctx.db, async (tx) => {
    const number = formatQuoteNumber(await takeNextQuoteNumber(tx, ctx.wallet));
    const [row] = await tx
      .insert(salesQuotes)
      .values({
        id: newId(),
        wallet: ctx.wallet,
        number,
        status: "DRAFT",
        ...columnsOf(body, number),
        validUntil,
        onAccept: onAccept ?? "draft",
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordQuoteAudit(tx, row.id, "CREATED", actorOf(ctx), now, null);
    return loadOwnerQuote(tx, row);
  });
}

/** PATCH /api/quotes/:id: DRAFT only; the body is merged and checked whole again. */
export async function updateQuote(
  ctx: AuthedContext,
  id: string,
  input: UpdateQuoteInput,
): Promise<OwnerQuote> {
  const now = ctx.now();
  if (input.validUntil !== undefined) assertValidUntil(input.validUntil, now);
  return withTransaction(ctx.db, async (tx) => {
    const current = await lockQuoteForOwner(tx, id, ctx);
    quoteTransition(current.status, "update"); // 400 before any other check
    const { validUntil, onAccept, ...patch } = input;
    const stored = current.body as QuoteInvoiceBody;
    // A saved client or new line items replace the stored ones whole.
    const base: Record<string, unknown> = { ...stored };
    if (patch.items || patch.lineItems) delete base.lineItems;
    if (patch.network || patch.networkPassphrase) delete base.networkPassphrase;
    if (patch.clientId) {
      for (const k of Object.keys(base)) if (k.startsWith("client")) delete base[k];
    }
    const merged = { ...base, ...stripUndefined(patch) } as TemplateInput;
    priceInvoice(merged);
    const body = await resolveBody({ ...ctx, db: tx }, parseTemplate(merged), now);
    const next = { ...columnsOf(body, current.number), title: body.title ?? current.title };
    const changes: Record<string, unknown> = {};
    for (const [key, value] of Object.entries({ ...body, validUntil, onAccept })) {
      if (value === undefined) continue;
      const before =
        key === "validUntil" || key === "onAccept"
          ? current[key]
          : (stored as Record<string, unknown>)[key];
      if (JSON.stringify(before ?? null) !== JSON.stringify(value ?? null)) {
        changes[key] = { from: before ?? null, to: value ?? null };
      }
    }
    if (Object.keys(changes).length === 0) return loadOwnerQuote(tx, current);
    const updated = await applyQuoteTransition(tx, current, "update", {
      actor: actorOf(ctx),
      at: now,
      set: { ...next, ...(validUntil ? { validUntil } : {}), ...(onAccept ? { onAccept } : {}) },
      changes,
    });
    return loadOwnerQuote(tx, updated);
  });
}

/** The merged body through the create's rules (line items, the client, the period). */
function parseTemplate(merged: TemplateInput): TemplateInput {
  // The stored body passed these rules; the patch's fields did too: only their mix is new.
  const result = quoteInvoiceBodySchema.safeParse({ ...merged, clientId: merged.clientId });
  if (result.success) return { ...result.data, clientId: merged.clientId } as TemplateInput;
  const details: Record<string, string> = {};
  for (const issue of result.error.issues)
    details[issue.path.join(".") || "body"] ??= issue.message;
  throw new ValidationError("Invalid request", details);
}

const stripUndefined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** DELETE /api/quotes/:id: DRAFT only, a soft delete (its number stays taken). */
export async function deleteQuote(ctx: AuthedContext, id: string): Promise<void> {
  const now = ctx.now();
  await withTransaction(ctx.db, async (tx) => {
    const current = await lockQuoteForOwner(tx, id, ctx);
    await applyQuoteTransition(tx, current, "delete", {
      actor: actorOf(ctx),
      at: now,
      set: { deletedAt: now },
      changes: { deletedAt: { from: null, to: now.toISOString() } },
    });
  });
}

/**
 * POST /api/quotes/:id/send: DRAFT -> SENT, the event quote.sent and the client's email with
 * the link to /quote/<id>, in one transaction. A validUntil already past is refused (400).
 */
export async function sendQuote(ctx: AuthedContext, id: string): Promise<OwnerQuote> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const current = await lockQuoteForOwner(tx, id, ctx);
    quoteTransition(current.status, "send");
    if (quoteHasExpired(current.validUntil, now)) {
      throw new ValidationError(VALID_UNTIL_PAST, { validUntil: VALID_UNTIL_PAST });
    }
    const sent = await applyQuoteTransition(tx, current, "send", {
      actor: actorOf(ctx),
      at: now,
      set: { sentAt: now },
    });
    await queueQuoteEmail(tx, ctx.config, sent, now);
    return loadOwnerQuote(tx, sent);
  });
}

/** GET /api/quotes/:id/owner: every field and the audit trail (expired on read when due). */
export async function getOwnerQuote(ctx: AuthedContext, id: string): Promise<OwnerQuote> {
  const row = await getLiveQuote(ctx.db, id);
  assertQuoteOwner(row, ctx);
  return loadOwnerQuote(ctx.db, await expireIfDue(ctx, row));
}

/** GET /api/quotes/:id: the client's view (the serializer leaves out emails and notes). */
export async function getPublicQuote(ctx: ServiceContext, id: string): Promise<QuoteRow> {
  return expireIfDue(ctx, await getLiveQuote(ctx.db, id));
}

export type QuotePage = {
  quotes: QuoteRow[];
  total: number;
  /** False for a broad search (docs/decisions.md, Search): `total` is then a bound. */
  totalExact: boolean;
  limit: number;
  offset: number;
  hasMore: boolean;
};

export const NO_SUCH_QUOTE = "No such quote";

const SORT_COLUMNS = {
  createdAt: salesQuotes.createdAt,
  updatedAt: salesQuotes.updatedAt,
  validUntil: salesQuotes.validUntil,
  total: salesQuotes.total,
  number: salesQuotes.number,
  status: salesQuotes.status,
} satisfies Record<QuoteSortField, unknown>;

/**
 * GET /api/quotes: the caller's live quotes, as the invoice list pages (docs/decisions.md,
 * Invoice list): `status`, `currency`, `clientEmail`, `sort=field:dir` (ties by id), `offset` or
 * `starting_after`. Quotes whose day has ended are expired first, so the filter and the
 * answer agree. `q` searches as the invoice list does (lib/services/search.ts): without `sort`,
 * ranked, (rank, createdAt, id) descending, the cursor's rank read in SQL. A broad search (more
 * than SEARCH_RANK_LIMIT matches) is not ranked nor counted past the limit: its matches come in
 * the sort's order, each row checked with searchFilter (docs/decisions.md, Search).
 */
export async function listQuotes(
  ctx: AuthedContext,
  query: ListQuotesQuery & { defaultLimit: number },
): Promise<QuotePage> {
  await expireDueQuotes(ctx, { wallet: ctx.wallet });
  const limit = query.limit ?? query.defaultLimit;
  const where: SQL[] = [eq(salesQuotes.wallet, ctx.wallet), isNull(salesQuotes.deletedAt)];
  const passphrase = keyPassphrase(ctx);
  if (passphrase) where.push(eq(salesQuotes.networkPassphrase, passphrase));
  if (query.status) where.push(eq(salesQuotes.status, query.status));
  if (query.currency) where.push(eq(salesQuotes.currency, query.currency));
  const network = resolveNetwork(query.network, query.networkPassphrase);
  if (network) where.push(eq(salesQuotes.networkPassphrase, network));
  if (query.clientEmail) where.push(eq(salesQuotes.clientEmail, query.clientEmail));
  const terms = query.q === undefined ? null : await searchTerms(ctx.db, query.q, ctx.wallet);
  if (terms) where.push(searchFilter(sql`${salesQuotes.searchText}`, terms));
  // A search reads the rows its keys give (lib/services/search.ts) and checks them.
  const candidates =
    terms &&
    searchCandidates(
      ctx.db,
      salesQuotes,
      salesQuotes.wallet,
      salesQuotes.searchText,
      terms,
      isNull(salesQuotes.deletedAt),
    );
  // A search's matches, counted up to one past the limit: its total unless it is broad.
  const matches =
    candidates === null ? null : await countMatches(ctx.db, candidates, and(...where));
  const broad = matches !== null && isBroad(matches);
  // A broad search reads its page in the sort's order, checking each row.
  const source = candidates && !broad ? candidates : salesQuotes;
  const rank = terms && !broad && query.sort === undefined ? terms : null;
  const score = (of: SQL) => (rank ? searchScore(of, rank) : null);
  const [field, direction] = (query.sort ?? "createdAt:desc").split(":") as [
    QuoteSortField,
    "asc" | "desc",
  ];
  const order = direction === "asc" ? asc : desc;
  const column = SORT_COLUMNS[field];
  const condition = and(...where);
  let offset = query.offset ?? 0;
  let pageCondition = condition;
  const n =
    matches !== null
      ? Math.min(matches, SEARCH_RANK_LIMIT)
      : (await ctx.db.select({ n: count() }).from(salesQuotes).where(condition))[0].n;
  if (query.starting_after !== undefined) {
    const [cursor] = await ctx.db
      .select({ id: salesQuotes.id })
      .from(salesQuotes)
      .where(and(eq(salesQuotes.id, query.starting_after), eq(salesQuotes.wallet, ctx.wallet)));
    if (!cursor) throw new ValidationError("Invalid request", { starting_after: NO_SUCH_QUOTE });
    const of = (name: string) =>
      sql`(select c.${sql.raw(name)} from ${salesQuotes} c where c.id = ${cursor.id})`;
    const past = sql.raw(direction === "asc" ? ">" : "<");
    const ranked = score(sql`${salesQuotes.searchText}`);
    const cursorRank = sql`(select ${score(sql.raw("c.search_text"))} from ${salesQuotes} c where c.id = ${cursor.id})`;
    pageCondition = and(
      condition,
      ranked
        ? sql`(${ranked}, ${column}, ${salesQuotes.id}) < (${cursorRank}, ${of(column.name)}, ${of("id")})`
        : sql`(${column}, ${salesQuotes.id}) ${past} (${of(column.name)}, ${of("id")})`,
    );
    // The page's offset: the total less the rows after the cursor; a broad search has no total,
    // so the matching rows up to the cursor, counted.
    const upTo = sql`(${column}, ${salesQuotes.id}) ${sql.raw(direction === "asc" ? "<=" : ">=")} (${of(column.name)}, ${of("id")})`;
    const [{ k }] = await ctx.db
      .select({ k: count() })
      .from(source)
      .where(broad ? and(condition, upTo) : pageCondition);
    offset = broad ? k : n - k;
  }
  const rows = await ctx.db
    .select(getTableColumns(salesQuotes))
    .from(source)
    .where(pageCondition)
    .orderBy(
      ...(rank ? [desc(searchScore(sql`${salesQuotes.searchText}`, rank))] : []),
      order(column),
      order(salesQuotes.id),
    )
    // A broad search reads one more row to know whether more follow.
    .limit(broad ? limit + 1 : limit)
    .offset(query.starting_after === undefined ? offset : 0);
  return {
    quotes: rows.slice(0, limit),
    total: n,
    totalExact: !broad,
    limit,
    offset,
    hasMore: broad ? rows.length > limit : offset + rows.length < n,
  };
}
