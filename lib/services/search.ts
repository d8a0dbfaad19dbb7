import { and, type Column, getTableName, type SQL, sql, type Table } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/db/client";
import { searchKeys } from "@/db/schema/columns";
import { SEARCH_RANK_LIMIT } from "@/lib/schemas/common";

// Search (docs/decisions.md, Search): `q` of the invoice, quote and credit note lists. Each
// document keeps one folded text, `search_text` (' number | party | email | title | rest ',
// written by the triggers of migration 0036), and each table one GIN index over its owner's
// word-start keys of that text (`search_keys`, migration 0042). Here: the query folded the same
// way with its keys, the documents the index gives, the exact match, and the rank.

/**
 * The query folded by the database (`search_fold`, the documents' own folding), its words, and
 * their keys for one owner (`search_query_keys`: a document's keys must hold them all).
 */
export type SearchTerms = { whole: string; words: string[]; keys: string[] };

/**
 * `q` folded by the database: unaccented, lower case, punctuation to spaces (so "Müller",
 * "MULLER" and "muller" are one word, and "ada@example.com" is "ada example com"), with its
 * words' keys in `owner`'s documents (the index's own recipe, in the same round trip). A query
 * with no letter or digit has no word and matches nothing.
 */
export async function searchTerms(db: DbOrTx, q: string, owner: string): Promise<SearchTerms> {
  const [{ folded, keys }] = await db
    .select({
      folded: sql<string>`f.folded`,
      keys: sql<string[]>`search_query_keys(${owner}, f.folded)`,
    })
    .from(sql`(select search_fold(${q}) as folded) as f`);
  const words = [...new Set(folded.split(" ").filter((w) => w.length > 0))];
  return { whole: words.length > 0 ? folded : "", words, keys: words.length > 0 ? keys : [] };
}

/**
 * The rows of `table` whose keys hold the query's (its GIN index, `search_keys`), as a subquery
 * named as the table, so the statement's columns and conditions read them as they read the
 * table. Candidates: the statement checks the owner and the words on them (`searchFilter`, with
 * the list's own conditions). `live` is the index's own condition (deleted rows are not in it).
 * `offset 0` keeps the planner from combining the key scan with the owner's other indexes:
 * every row the keys give is the owner's unless two addresses share their first characters,
 * so an index on the owner would only add its whole list to read (docs/decisions.md, Search,
 * "Keys"). Typed as the table: it is a subquery under the table's name, whose columns drizzle
 * writes as the table's, so `from(candidates)` takes the table's columns and joins.
 */
export function searchCandidates<T extends PgTable>(
  db: DbOrTx,
  table: T,
  owner: Column,
  text: Column,
  terms: SearchTerms,
  live?: SQL,
) {
  const keys = terms.keys.length
    ? sql`${searchKeys(owner, text)} @> array[${sql.join(
        terms.keys.map((k) => sql`${k}`),
        sql`, `,
      )}]::text[]`
    : sql`false`;
  return (
    db
      .select()
      .from(table as PgTable)
      .where(and(keys, live))
      // drizzle leaves out `offset 0`, the number; as SQL it is written.
      .offset(sql`0` as unknown as number)
      .as(getTableName(table)) as unknown as T
  );
}

/**
 * The match: every word of the query starts a word of the document's text ("acm" finds "Acme",
 * "0042" finds INV-0042, "ork" does not find "Zork"); the text's words all follow a space.
 * Checked on each row (`strpos(text, ' word')`): on the candidates the keys give
 * (`searchCandidates`), or, for a broad search (countMatches, isBroad), on the rows of the list's
 * own index in its order, so that a page stops after its rows instead of every match being
 * found first and sorted (docs/decisions.md, Search). Folded words hold no `%`, `_` or `\`.
 */
export function searchFilter(text: SQL, terms: SearchTerms): SQL {
  if (terms.words.length === 0) return sql`false`;
  return and(...terms.words.map((w) => sql`strpos(${text}, ${` ${w}`}) > 0`)) as SQL;
}

/** Points of one word, by the first field it starts a word of. */
const WORD_POINTS = [
  [1, 200], // the number ("0042" of INV-0042)
  [2, 100], // client name or company
  [3, 60], // email
  [4, 40], // title
  [5, 20], // line descriptions (a credit note's reason and its invoice's number too)
] as const;

/**
 * The rank of a matching document (higher first): the whole query as the number or its end
 * ("INV-0042", "0042": 1000) or as the start of the number (500), plus, per word, the points of
 * the first field where a word starts with it. An integer, so the list's cursor can compare it
 * exactly: the same query ranks a document the same on every page.
 */
export function searchScore(text: SQL, terms: SearchTerms): SQL<number> {
  // No word, no match: a rank for the order to read anyway, an expression (a bare `0` in ORDER
  // BY would name the select list's column 0).
  if (terms.words.length === 0) return sql<number>`cast(0 as integer)`;
  const field = (i: number) => sql`split_part(${text}, '|', ${sql.raw(String(i))})`;
  const number = sql`(case when ${field(1)} like ${`% ${terms.whole} `} then 1000 when ${text} like ${` ${terms.whole}%`} then 500 else 0 end)`;
  const words = terms.words.map(
    (w) =>
      sql`(case ${sql.join(
        WORD_POINTS.map(
          ([i, points]) => sql`when ${field(i)} like ${`% ${w}%`} then ${sql.raw(String(points))}`,
        ),
        sql` `,
      )} else 0 end)`,
  );
  return sql<number>`(${sql.join([number, ...words], sql` + `)})`;
}

/**
 * A search's matches: the rows of `from` that meet `condition` (the list's filters with the
 * search's match), counted up to one past SEARCH_RANK_LIMIT and no further, so it costs at most
 * that many rows whatever the books hold. More than the limit: the search is broad
 * (`isBroad`); else this is its exact total. `from` may be a join (the credit notes with their
 * invoices, which a key's network condition reads).
 */
export async function countMatches(
  db: DbOrTx,
  from: Table | SQL,
  condition: SQL | undefined,
): Promise<number> {
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(
      sql`(select 1 from ${from} where ${condition} limit ${SEARCH_RANK_LIMIT + 1}) as matches`,
    );
  return n;
}

/** Whether a search of `matches` (countMatches) is broad: more than it ranks and counts. */
export const isBroad = (matches: number) => matches > SEARCH_RANK_LIMIT;
