-- Search (docs/decisions.md, Search, "Keys"): the trigram indexes over (owner, text) of
-- migration 0036 are replaced by one GIN index per table over the owner's word-start keys of
-- the same folded text. A GIN over (owner, trigrams) intersects the owner's whole posting list
-- with the trigram's at every search, so a search cost what the owner's books and everyone's
-- trigram held (5 ms for one word at 1,000,000 invoices); a key names both the owner and the
-- start of a word, so its posting list holds just that owner's documents with that word start.
-- A key is the owner's first 8 characters, a space and a word's first 1 to 6 characters:
-- documents of two owners whose addresses start alike share keys, and a word longer than 6
-- shares its key with the others of its first 6, so the rows the index gives are candidates,
-- and every search checks owner and words on them (lib/services/search.ts).
CREATE OR REPLACE FUNCTION search_key(owner text, word text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT left(owner, 8) || ' ' || left(word, 6)
$$;--> statement-breakpoint
-- A document's keys: one per start of each of its words ("acme": a, ac, acm, acme). GIN keeps
-- each key once per row, so repeats cost nothing in the index. Its search_path is the one it
-- was created with: pg_restore rebuilds the index with an empty one, where search_key would
-- not be found.
CREATE OR REPLACE FUNCTION search_keys(owner text, doc text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT SET search_path FROM CURRENT AS $$
DECLARE
  keys text[] := '{}';
  word text;
  k text;
  prev text;
BEGIN
  FOREACH word IN ARRAY string_to_array(doc, ' ') LOOP
    CONTINUE WHEN word = '' OR word = '|';
    prev := NULL;
    FOR n IN 1..length(word) LOOP
      k := search_key(owner, left(word, n));
      EXIT WHEN k = prev;
      keys := keys || k;
      prev := k;
    END LOOP;
  END LOOP;
  RETURN keys;
END
$$;--> statement-breakpoint
-- A folded query's keys: one per word, which a document's keys must all hold.
CREATE OR REPLACE FUNCTION search_query_keys(owner text, query text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT SET search_path FROM CURRENT AS $$
  SELECT coalesce(array_agg(DISTINCT search_key(owner, w)), '{}')
  FROM unnest(string_to_array(query, ' ')) AS w WHERE w <> ''
$$;--> statement-breakpoint
CREATE INDEX "credit_notes_search_keys_idx" ON "credit_notes" USING gin (search_keys("wallet", "search_text"));--> statement-breakpoint
CREATE INDEX "invoices_search_keys_idx" ON "invoices" USING gin (search_keys("freelancer_wallet", "search_text")) WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "sales_quotes_search_keys_idx" ON "sales_quotes" USING gin (search_keys("wallet", "search_text")) WHERE "sales_quotes"."deleted_at" is null;--> statement-breakpoint
DROP INDEX "credit_notes_owner_search_idx";--> statement-breakpoint
DROP INDEX "invoices_owner_search_idx";--> statement-breakpoint
DROP INDEX "sales_quotes_owner_search_idx";
