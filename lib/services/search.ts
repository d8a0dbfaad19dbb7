import { and, type SQL, sql, type Table } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { SEARCH_RANK_LIMIT } from "@/lib/schemas/common";

// Search (docs/decisions.md, Search): `q` of the invoice, quote and credit note lists. Each
// document keeps one folded text, `search_text` (' number | party | email | title | rest ',
// written by the triggers of migration 0036), indexed by trigrams. Here: the query folded the
// same way, the match, and the rank.

/** The query folded by the database (`search_fold`, the documents' own folding) and its words. */
export type SearchTerms = { whole: string; words: string[] };

/**
 * `q` folded by the database: unaccented, lower case, punctuation to spaces (so "Müller",
 * "MULLER" and "muller" are one word, and "ada@example.com" is "ada example com"). Folded in
 * a round trip of its own so the patterns below reach the plan as plain parameters, which the
 * trigram index reads. A query with no letter or digit has no word and matches nothing.
 */
export async function searchTerms(db: DbOrTx, q: string): Promise<SearchTerms> {
  const [{ folded }] = await db
    .select({ folded: sql<string>`search_fold(${q})` })
    .from(sql`(select 1) as one`);
  const words = [...new Set(folded.split(" ").filter((w) => w.length > 0))];
  return { whole: words.length > 0 ? folded : "", words };
}

/**
 * Every word of the query starts a word of the document's text ("acm" finds "Acme", "0042"
 * finds INV-0042, "ork" does not find "Zork"); the text's words all follow a space. What the
 * trigram index is given depends on the word's length (EXPLAINs in docs/decisions.md, Search):
 * a word of 3 characters or more goes as `%word%`, its own trigrams, which are rare, and the
 * word start is checked on the rows found (`strpos`, which the index does not take); a shorter
 * word has no trigram of its own, so it goes as `% word%`, whose leading space gives the
 * word-start trigrams ("  a", " ac"). Folded words hold no `%`, `_` or `\`: they go into LIKE
 * as they are.
 */
export function searchMatch(text: SQL, terms: SearchTerms): SQL {
  if (terms.words.length === 0) return sql`false`;
  return and(
    ...terms.words.map((w) =>
      w.length >= 3
        ? sql`(${text} like ${`%${w}%`} and strpos(${text}, ${` ${w}`}) > 0)`
        : sql`${text} like ${`% ${w}%`}`,
    ),
  ) as SQL;
}

/**
 * The same match as `searchMatch` without the trigram index: each word as a word start
 * (`strpos(text, ' word')`), which no index takes. A broad search (countMatches, isBroad) filters with
 * it so that its page is read in the order of the list's own index, stopping after its rows,
 * instead of every match being found first and sorted (docs/decisions.md, Search).
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
