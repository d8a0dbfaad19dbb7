import { and, asc, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { invoiceStats, invoices } from "@/db/schema";
import { ValidationError } from "@/lib/domain/errors";
import { SEARCH_RANK_LIMIT, type SortField } from "@/lib/schemas/common";
import type { ListInvoicesQuery } from "@/lib/schemas/invoices";
import { keyNetworkCondition, keyPassphrase } from "@/lib/services/auth/key-network";
import type { AuthedContext } from "../context";
import {
  countMatches,
  isBroad,
  type SearchTerms,
  searchCandidates,
  searchFilter,
  searchScore,
  searchTerms,
} from "../search";
import { resolveNetwork } from "./network";
import type { InvoiceRow } from "./store";

const SORT_COLUMNS = {
  createdAt: invoices.createdAt,
  updatedAt: invoices.updatedAt,
  dueDate: invoices.dueDate,
  total: invoices.total,
  invoiceNumber: invoices.invoiceNumber,
  status: invoices.status,
} satisfies Record<SortField, unknown>;

/**
 * The value a sort orders by, never null, so that the order, its index and a cursor's place are
 * one plain `(key, id)` comparison (docs/decisions.md, Invoice list, "Cost"). Invoices without a
 * due date sort last in both directions: their key is `infinity` ascending and `-infinity`
 * descending (no real due date is either), each read on its own index (db/schema/invoices.ts).
 */
export function sortKey(field: SortField, direction: "asc" | "desc"): SQL {
  if (field !== "dueDate") return sql`${SORT_COLUMNS[field]}`;
  const last = direction === "asc" ? "infinity" : "-infinity";
  return sql`coalesce(${invoices.dueDate}, ${sql.raw(`'${last}'::timestamptz`)})`;
}

/**
 * The columns a list item shows (lib/serializers/invoices.ts), and only those: mapping the
 * invoice's ~60 columns for 50 rows was the list's largest cost under load (bench/results.md).
 */
const LIST_COLUMNS = {
  id: invoices.id,
  invoiceNumber: invoices.invoiceNumber,
  status: invoices.status,
  title: invoices.title,
  clientName: invoices.clientName,
  subtotal: invoices.subtotal,
  total: invoices.total,
  amountPaid: invoices.amountPaid,
  // Credit notes lower amountDue (docs/decisions.md, Credit notes).
  amountCredited: invoices.amountCredited,
  // amountDue of a fiat-priced invoice counts amountPaid in cents (lib/domain/fiat.ts).
  priceCurrency: invoices.priceCurrency,
  currency: invoices.currency,
  networkPassphrase: invoices.networkPassphrase,
  dueDate: invoices.dueDate,
  createdAt: invoices.createdAt,
};

export type InvoiceListRow = Pick<InvoiceRow, keyof typeof LIST_COLUMNS>;

export type InvoicePage = {
  invoices: InvoiceListRow[];
  total: number;
  /** False for a broad search: `total` is then SEARCH_RANK_LIMIT and there are more. */
  totalExact: boolean;
  limit: number;
  offset: number;
  hasMore: boolean;
};

/**
 * `details.starting_after` of the 400 for a cursor that is not one of the caller's invoices:
 * the same words for an unknown id and another wallet's, as GET /api/events.
 */
export const NO_SUCH_INVOICE = "No such invoice";

/**
 * The caller's live invoices. Payment links (kind LINK) are left out unless
 * `excludePreview=false` (docs/decisions.md). Ties are broken by id so pages never overlap.
 * Pages go by `offset` or, keyset style, `starting_after` an invoice of the caller's
 * (docs/decisions.md, Invoice list): the rows after it in the same order, whatever the sort.
 * `q` keeps the invoices that match it and, without an explicit `sort`, puts the best first
 * (lib/services/search.ts; docs/decisions.md, Search): the order is then (rank, createdAt, id),
 * all descending, and a cursor is a position in that order, its rank for this `q` read in SQL.
 * A broad search (more than SEARCH_RANK_LIMIT matches) is neither ranked nor counted past the
 * limit: its matches come in the list's order and its total is "more than the limit".
 */
export async function listInvoices(
  ctx: AuthedContext,
  query: ListInvoicesQuery & { defaultLimit: number },
): Promise<InvoicePage> {
  const limit = query.limit ?? query.defaultLimit;
  const network = resolveNetwork(query.network, query.networkPassphrase);
  const where: SQL[] = [
    eq(invoices.freelancerWallet, ctx.wallet),
    isNull(invoices.deletedAt),
    ...keyNetworkCondition(ctx),
  ];
  if (query.excludePreview !== false) where.push(eq(invoices.kind, "INVOICE"));
  if (query.status) where.push(eq(invoices.status, query.status));
  if (query.currency) where.push(eq(invoices.currency, query.currency));
  if (network) where.push(eq(invoices.networkPassphrase, network));
  if (query.clientEmail) where.push(eq(invoices.clientEmail, query.clientEmail));
  const terms = query.q === undefined ? null : await searchTerms(ctx.db, query.q, ctx.wallet);
  const condition = and(
    ...where,
    ...(terms ? [searchFilter(sql`${invoices.searchText}`, terms)] : []),
  );
  // A search reads the rows its keys give (lib/services/search.ts) and checks them.
  const candidates =
    terms &&
    searchCandidates(
      ctx.db,
      invoices,
      invoices.freelancerWallet,
      invoices.searchText,
      terms,
      isNull(invoices.deletedAt),
    );
  const cursor = query.starting_after;
  // The search box's pages (without `sort`, by offset) are one statement, broad or not; other
  // searches ask first.
  if (candidates && terms && query.sort === undefined && cursor === undefined) {
    const first = await searchBoxPage(ctx, candidates, condition, terms, limit, query.offset ?? 0);
    if (first) return first;
  }
  const broad = candidates !== null && isBroad(await countMatches(ctx.db, candidates, condition));
  // A broad search reads its page in the list's order and checks each row, instead of the
  // candidates, which would find every match first (docs/decisions.md, Search).
  const source = candidates && !broad ? candidates : invoices;
  // Ranked when searching without an explicit sort (the default sort is createdAt:desc), unless
  // the search is broad (docs/decisions.md, Search, "Broad searches").
  const rank = terms && !broad && query.sort === undefined ? terms : null;

  const [field, direction] = (query.sort ?? "createdAt:desc").split(":") as [
    SortField,
    "asc" | "desc",
  ];
  const order = direction === "asc" ? asc : desc;
  const primary = order(sortKey(field, direction));
  // One statement per page: the counts ride along as uncorrelated subqueries (computed once),
  // so a page costs one pooled connection; only an empty page, which has no row to carry
  // them, asks for them apart. Prepared (.prepare()): postgres.js then keeps the statement on
  // each connection and sends only its parameters, one round trip, where an unprepared
  // statement with parameters costs two (its parameter types are asked for first).
  const countOf = (cond: SQL | undefined) =>
    sql<number>`(select count(*) from ${source} where ${cond})`.mapWith(Number);
  const total = totalOf(ctx, query, network, condition, countOf);
  const page = <C extends Record<string, SQL.Aliased | SQL>>(
    cond: SQL | undefined,
    counts: C,
    rowsToRead = limit,
  ) =>
    ctx.db
      .select({ ...LIST_COLUMNS, ...counts })
      .from(source)
      .where(cond)
      .orderBy(
        ...(rank ? [desc(searchScore(sql`${invoices.searchText}`, rank))] : []),
        primary,
        order(invoices.id),
      )
      .limit(rowsToRead);
  if (cursor === undefined) {
    const offset = query.offset ?? 0;
    if (broad) {
      // Not counted: one more row than the page tells whether more follow.
      const rows = await page(condition, {}, limit + 1).offset(offset);
      const invoices = rows.slice(0, limit);
      return {
        invoices,
        total: SEARCH_RANK_LIMIT,
        totalExact: false,
        limit,
        offset,
        hasMore: rows.length > limit,
      };
    }
    // A search counts its matches over the same scan (a window), not with a second one: its
    // index finds the rows, but reading and checking them is what costs (docs/decisions.md, Search).
    // Otherwise the total comes from the statistics rows when it can (totalOf).
    const matching = terms ? sql<number>`count(*) over ()`.mapWith(Number) : total;
    const first = page(condition, { matching }).offset(offset);
    // A search's statement varies with its words: not kept as one named statement.
    const rows = terms ? await first : await first.prepare("list_invoices").execute();
    const n =
      rows[0]?.matching ?? (await ctx.db.select({ n: total }).from(sql`(select 1) as one`))[0].n;
    return offsetPage(rows, n, limit, offset);
  }
  // Keyset: the rows after the cursor, one more than the page to know whether more follow,
  // the total and the page's position (totalAndPosition); the cursor's values
  // are read in SQL, so timestamps keep their microseconds.
  const key = rank ? null : sortKey(field, direction);
  const after = and(condition, cursorCondition(ctx, cursor, key, direction, rank, "after"));
  const upTo = and(condition, cursorCondition(ctx, cursor, key, direction, rank, "upTo"));
  const counts = {
    totalAndPosition: broad ? broadPosition(upTo) : totalAndPosition(source, total, upTo, after),
    found: sql<boolean>`exists(${cursorRow(ctx, cursor, sql`1`)})`,
  };
  const next = page(after, counts, limit + 1);
  const read = terms ? await next : await next.prepare("list_invoices_after").execute();
  const {
    totalAndPosition: [n, position],
    found,
  } = read[0] ?? (await ctx.db.select(counts).from(sql`(select 1) as one`))[0];
  if (!found) throw new ValidationError("Invalid request", { starting_after: NO_SUCH_INVOICE });
  const rows = read.slice(0, limit);
  return {
    invoices: rows,
    total: n,
    totalExact: !broad,
    limit,
    offset: position,
    hasMore: read.length > limit,
  };
}

/**
 * The search box's page (a search without `sort`, by offset) in one statement, whether the
 * search is broad or not (docs/decisions.md, Search, "Broad searches"). Its matches are read
 * from the candidates of its keys up to one past SEARCH_RANK_LIMIT (`limit` stops the reading)
 * with only what ranks them, and counted. Up to the limit, they are ranked and the page's rows
 * read in full; beyond it (broad), the page is read in the list's order from its own index,
 * each row checked, and one more row tells whether more follow: each part runs only when the
 * count says so. Null when the page is past the matches (no row carries the count):
 * listInvoices then counts them (countMatches).
 */
async function searchBoxPage(
  ctx: AuthedContext,
  candidates: typeof invoices,
  condition: SQL | undefined,
  terms: SearchTerms,
  limit: number,
  offset: number,
): Promise<InvoicePage | null> {
  const list = sql.join(Object.values(LIST_COLUMNS), sql`, `);
  const score = searchScore(sql`m.search_text`, terms);
  const rows = await ctx.db
    .select({
      ...(Object.fromEntries(
        Object.entries(LIST_COLUMNS).map(([k, c]) => [
          k,
          sql`p.${sql.identifier(c.name)}`.mapWith(c),
        ]),
      ) as { [K in keyof typeof LIST_COLUMNS]: SQL<InvoiceListRow[K]> }),
      matching: sql<number>`p.matching`.mapWith(Number),
    })
    .from(
      sql`(with m as materialized (
          select ${invoices.id}, ${invoices.createdAt}, ${invoices.searchText} from ${candidates}
          where ${condition} limit ${SEARCH_RANK_LIMIT + 1}),
        n as (select count(*) as c from m)
        select q.*, n.c as matching from n cross join lateral (
          (select ${list}, t.rank from (
              select m.id, m.created_at, ${score} as rank from m where n.c <= ${SEARCH_RANK_LIMIT}
              order by rank desc, m.created_at desc, m.id desc limit ${limit} offset ${offset}) t
            join ${invoices} on ${invoices.id} = t.id)
          union all
          (select ${list}, 0 from ${invoices} where n.c > ${SEARCH_RANK_LIMIT} and ${condition}
            order by ${invoices.createdAt} desc, ${invoices.id} desc
            limit ${limit + 1} offset ${offset})
        ) q) p`,
    )
    .orderBy(sql`p.rank desc, p.created_at desc, p.id desc`);
  const n = rows[0]?.matching;
  if (n === undefined) return null;
  const invoicesOf = rows.map(({ matching, ...row }) => row);
  if (!isBroad(n)) return offsetPage(invoicesOf, n, limit, offset);
  return {
    invoices: invoicesOf.slice(0, limit),
    total: SEARCH_RANK_LIMIT,
    totalExact: false,
    limit,
    offset,
    hasMore: rows.length > limit,
  };
}

/** An `offset` page of `n` matching invoices in all, counted exactly. */
function offsetPage(rows: InvoiceListRow[], n: number, limit: number, offset: number): InvoicePage {
  return {
    invoices: rows,
    total: n,
    totalExact: true,
    limit,
    offset,
    hasMore: offset + rows.length < n,
  };
}

/**
 * A broad search's cursor page: its `total` (SEARCH_RANK_LIMIT, as its first page says) and
 * its `offset`, the matching rows up to the cursor (`upTo`), counted: there is no total to take
 * the rows after it from.
 */
function broadPosition(upTo: SQL | undefined) {
  return sql<
    [number, number]
  >`(select array[${SEARCH_RANK_LIMIT}::int8, count(*)] from ${invoices} where ${upTo})`.mapWith(
    (v: unknown[]) => v.map(Number) as [number, number],
  );
}

/**
 * A cursor page's `total` and `offset` (the number of matching invoices before it), the total
 * computed once. The offset is counted on the cursor's shorter side as long as the cursor is in
 * the first half (docs/decisions.md, Invoice list, "Cost"): the rows up to the cursor (`upTo`),
 * counted on the sort's index and stopped at half the total; when that many are there, the
 * total less the rows after the cursor (`after`). So a page in the first half of a walk reads
 * the rows before it, and one past the middle half the books and then the rows after it. Both
 * counts are exact, in the statement's one snapshot; the second runs only when the first stops
 * (a subquery in a CASE branch is evaluated when the branch is).
 */
function totalAndPosition(
  source: typeof invoices | SQL,
  total: SQL<number>,
  upTo: SQL | undefined,
  after: SQL | undefined,
) {
  return sql<[number, number]>`(select array[t.n, case when b.k < t.h then b.k
      else t.n - (select count(*) from ${source} where ${after}) end]
    from (select s.n, s.n / 2 + 1 as h from (select cast(${total} as bigint) as n) s) t,
      lateral (select count(*) as k from (select 1 from ${source} where ${upTo} limit t.h) x) b)`.mapWith(
    // int8[]: strings from postgres.js, numbers from PGlite.
    (v: unknown[]) => v.map(Number) as [number, number],
  );
}

/** The query's keys that filter nothing, or only by a group invoice_stats keeps. */
const GROUP_KEYS = new Set([
  "limit",
  "offset",
  "sort",
  "starting_after",
  "defaultLimit",
  "excludePreview",
  "status",
  "currency",
  "network",
  "networkPassphrase",
]);

/**
 * The list's `total`: the sum of the wallet's statistics rows (db/schema/invoice-stats.ts,
 * kept by the database as invoices change; a few hundred rows whatever the size of the books)
 * when every filter is one of their groups (kind, status, currency, network), else a count of
 * the matching rows (docs/decisions.md, Invoice list, "Total").
 */
function totalOf(
  ctx: AuthedContext,
  query: ListInvoicesQuery & { defaultLimit: number },
  network: string | undefined,
  condition: SQL | undefined,
  countOf: (cond: SQL | undefined) => SQL<number>,
): SQL<number> {
  const filtered = Object.entries(query).some(([k, v]) => v !== undefined && !GROUP_KEYS.has(k));
  if (filtered) return countOf(condition);
  const where: SQL[] = [eq(invoiceStats.freelancerWallet, ctx.wallet)];
  for (const n of [keyPassphrase(ctx), network]) {
    if (n) where.push(eq(invoiceStats.networkPassphrase, n));
  }
  if (query.excludePreview !== false) where.push(eq(invoiceStats.kind, "INVOICE"));
  if (query.status) where.push(eq(invoiceStats.status, query.status));
  if (query.currency) where.push(eq(invoiceStats.currency, query.currency));
  return sql<number>`(select coalesce(sum(${invoiceStats.invoices}), 0) from ${invoiceStats} where ${and(...where)})`.mapWith(
    Number,
  );
}

/**
 * `select <what> from` the cursor invoice, if it is one of the caller's (deleted or not). Its
 * `from` names the table without an alias, so `what` may be any expression over the invoices'
 * columns (a sort key, a rank): inside the subquery they are the cursor's.
 */
function cursorRow(ctx: AuthedContext, id: string, what: SQL): SQL {
  const passphrase = keyPassphrase(ctx);
  const network = passphrase ? sql` and ${invoices.networkPassphrase} = ${passphrase}` : sql``;
  return sql`select ${what} from ${invoices} where ${invoices.id} = ${id} and ${invoices.freelancerWallet} = ${ctx.wallet}${network}`;
}

/**
 * Rows strictly after the cursor in the list's order (`after`): (sort key, id) past the
 * cursor's, in the sort's direction; or exactly the others (`upTo`: the cursor's own place and
 * every row before it), so that the two split the matching rows. Each is one row comparison,
 * a range of the sort's index. Ranked (`rank`: a search without `sort`, so createdAt:desc):
 * (rank, createdAt, id) below the cursor's, its rank computed from its own text for the same
 * query.
 */
function cursorCondition(
  ctx: AuthedContext,
  id: string,
  key: SQL | null,
  direction: "asc" | "desc",
  rank: SearchTerms | null,
  side: "after" | "upTo",
): SQL {
  const down = direction === "desc" || rank !== null;
  // "after" is past the cursor in the order; "upTo" is its exact complement (no key is null).
  const past = sql.raw(side === "after" ? (down ? "<" : ">") : down ? ">=" : "<=");
  const keys = rank
    ? [searchScore(sql`${invoices.searchText}`, rank), sql`${invoices.createdAt}`]
    : [key as SQL];
  const mine = sql.join([...keys, sql`${invoices.id}`], sql`, `);
  const cursors = sql.join(
    [...keys, sql`${invoices.id}`].map((k) => sql`(${cursorRow(ctx, id, k)})`),
    sql`, `,
  );
  return sql`(${mine}) ${past} (${cursors})`;
}
