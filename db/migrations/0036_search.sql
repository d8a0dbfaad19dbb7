-- Search (docs/decisions.md, Search): GET /api/invoices, /api/quotes and /api/credit-notes take
-- `q`. Each document keeps one folded text, `search_text`, written by the triggers below on every
-- write of what it is made of, and one GIN index over (owner, trigrams of that text).
-- pg_trgm, unaccent and btree_gin are contrib extensions of PostgreSQL, and of the embedded
-- PGlite (which db/client.ts loads them into).
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "search_text" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "search_text" text;--> statement-breakpoint
ALTER TABLE "sales_quotes" ADD COLUMN "search_text" text;--> statement-breakpoint
-- unaccent() is STABLE (its dictionary could change), so it is wrapped in an IMMUTABLE function
-- with the dictionary named with its schema (wherever the extension lives, e.g. `extensions` on
-- hosted PostgreSQL): the usual pattern, so the planner folds it over constants.
DO $do$
DECLARE s text := (SELECT quote_ident(n.nspname) FROM pg_extension e
  JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent');
BEGIN
  EXECUTE format(
    'CREATE OR REPLACE FUNCTION immutable_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS %L',
    format('SELECT %s.unaccent(%L::regdictionary, $1)', s, s || '.unaccent'));
END
$do$;--> statement-breakpoint
-- The folding of both sides, documents and queries: no accents, lower case, ASCII punctuation
-- (which holds LIKE's % _ \ and the field separator |) turned to single spaces, trimmed.
CREATE OR REPLACE FUNCTION search_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT btrim(regexp_replace(lower(immutable_unaccent(coalesce($1, ''))),
    '[[:space:]!-/:-@[-`{-~]+', ' ', 'g'))
$$;--> statement-breakpoint
-- One recipe for every document: ' number | party | email | title | rest ', each field folded.
-- The ranking reads the fields apart (lib/services/search.ts). Every trigger below writes it.
CREATE OR REPLACE FUNCTION search_document(num text, party text, email text, title text, rest text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ' ' || search_fold(num) || ' | ' || search_fold(party) || ' | ' || search_fold(email)
    || ' | ' || search_fold(title) || ' | ' || search_fold(rest) || ' '
$$;--> statement-breakpoint
-- The triggers below spell each document's arguments out in PL/pgSQL: their statements' plans
-- are kept per session with search_document and search_fold inlined into them (plain SQL
-- functions holding a subquery would be planned again at every row).
-- An invoice: its number, client name and company, email, title and line descriptions (none yet
-- at its insert: lines reference it).
CREATE OR REPLACE FUNCTION invoices_set_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := search_document(NEW.invoice_number,
    concat_ws(' ', NEW.client_name, NEW.client_company), NEW.client_email, NEW.title,
    CASE WHEN TG_OP = 'UPDATE' THEN
      (SELECT string_agg(l.description, ' ' ORDER BY l.position)
         FROM invoice_line_items l WHERE l.invoice_id = NEW.id) END);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER invoices_search_text BEFORE INSERT OR UPDATE OF invoice_number, client_name,
  client_company, client_email, title ON invoices
  FOR EACH ROW EXECUTE FUNCTION invoices_set_search_text();--> statement-breakpoint
-- Lines are written after their invoice (and replaced as a whole, lib/services/invoices/store.ts):
-- once per statement, the invoices whose lines changed take their text again.
CREATE OR REPLACE FUNCTION invoice_lines_set_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE invoices i SET search_text = search_document(i.invoice_number,
      concat_ws(' ', i.client_name, i.client_company), i.client_email, i.title,
      (SELECT string_agg(l.description, ' ' ORDER BY l.position)
         FROM invoice_line_items l WHERE l.invoice_id = i.id))
    WHERE i.id IN (SELECT DISTINCT invoice_id FROM changed_lines);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER invoice_lines_search_insert AFTER INSERT ON invoice_line_items
  REFERENCING NEW TABLE AS changed_lines
  FOR EACH STATEMENT EXECUTE FUNCTION invoice_lines_set_search_text();--> statement-breakpoint
CREATE TRIGGER invoice_lines_search_update AFTER UPDATE ON invoice_line_items
  REFERENCING NEW TABLE AS changed_lines
  FOR EACH STATEMENT EXECUTE FUNCTION invoice_lines_set_search_text();--> statement-breakpoint
CREATE TRIGGER invoice_lines_search_delete AFTER DELETE ON invoice_line_items
  REFERENCING OLD TABLE AS changed_lines
  FOR EACH STATEMENT EXECUTE FUNCTION invoice_lines_set_search_text();--> statement-breakpoint
-- A quote: its number, client name and company (in its body), email, title and line descriptions.
CREATE OR REPLACE FUNCTION sales_quotes_set_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := search_document(NEW.number,
    concat_ws(' ', NEW.client_name, NEW.body ->> 'clientCompany'), NEW.client_email, NEW.title,
    (SELECT string_agg(l ->> 'description', ' ') FROM jsonb_array_elements(NEW.line_items) l));
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER sales_quotes_search_text BEFORE INSERT OR UPDATE OF number, client_name, client_email,
  title, body, line_items ON sales_quotes
  FOR EACH ROW EXECUTE FUNCTION sales_quotes_set_search_text();--> statement-breakpoint
-- A credit note (written once, never changed; its invoice is sent, so its client and title are
-- fixed): its number, its invoice's client, email and title, then its reason, its lines'
-- descriptions and its invoice's number.
CREATE OR REPLACE FUNCTION credit_notes_set_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := (SELECT search_document(NEW.number,
      concat_ws(' ', i.client_name, i.client_company), i.client_email, i.title,
      concat_ws(' ', NEW.reason,
        (SELECT string_agg(l ->> 'description', ' ') FROM jsonb_array_elements(NEW.lines) l),
        i.invoice_number))
    FROM invoices i WHERE i.id = NEW.invoice_id);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER credit_notes_search_text BEFORE INSERT ON credit_notes
  FOR EACH ROW EXECUTE FUNCTION credit_notes_set_search_text();--> statement-breakpoint
-- Existing rows: their text written once by the triggers' own recipes (the invoices without the
-- status notifications of migration 0018: nothing a payer sees changed).
ALTER TABLE invoices DISABLE TRIGGER invoices_notify_change;--> statement-breakpoint
UPDATE invoices i SET search_text = search_document(i.invoice_number,
  concat_ws(' ', i.client_name, i.client_company), i.client_email, i.title,
  (SELECT string_agg(l.description, ' ' ORDER BY l.position)
     FROM invoice_line_items l WHERE l.invoice_id = i.id));--> statement-breakpoint
ALTER TABLE invoices ENABLE TRIGGER invoices_notify_change;--> statement-breakpoint
UPDATE sales_quotes SET title = title;--> statement-breakpoint
UPDATE credit_notes cn SET search_text = search_document(cn.number,
  concat_ws(' ', i.client_name, i.client_company), i.client_email, i.title,
  concat_ws(' ', cn.reason,
    (SELECT string_agg(l ->> 'description', ' ') FROM jsonb_array_elements(cn.lines) l),
    i.invoice_number))
  FROM invoices i WHERE i.id = cn.invoice_id;--> statement-breakpoint
CREATE INDEX "credit_notes_owner_search_idx" ON "credit_notes" USING gin ("wallet","search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "invoices_owner_search_idx" ON "invoices" USING gin ("freelancer_wallet","search_text" gin_trgm_ops) WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "sales_quotes_owner_search_idx" ON "sales_quotes" USING gin ("wallet","search_text" gin_trgm_ops) WHERE "sales_quotes"."deleted_at" is null;
