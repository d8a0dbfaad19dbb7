CREATE TABLE "invoice_stats" (
	"freelancer_wallet" text NOT NULL,
	"network_passphrase" text NOT NULL,
	"kind" text NOT NULL,
	"currency" text NOT NULL,
	"price_currency" text NOT NULL,
	"status" text NOT NULL,
	"invoices" bigint NOT NULL,
	"net" numeric NOT NULL,
	"due" numeric NOT NULL,
	"credited_over" numeric NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_stats" (
	"freelancer_wallet" text NOT NULL,
	"network_passphrase" text NOT NULL,
	"kind" text NOT NULL,
	"currency" text NOT NULL,
	"price_currency" text NOT NULL,
	"month" date NOT NULL,
	"fiat_currency" text NOT NULL,
	"payments" bigint NOT NULL,
	"kept" numeric NOT NULL,
	"kept_in_asset" numeric NOT NULL,
	"kept_value" numeric NOT NULL,
	"fiat_kept" numeric NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_audit_logs" ADD COLUMN "freelancer_wallet" text;--> statement-breakpoint
CREATE INDEX "invoice_stats_wallet_idx" ON "invoice_stats" USING btree ("freelancer_wallet");--> statement-breakpoint
CREATE INDEX "payment_stats_wallet_idx" ON "payment_stats" USING btree ("freelancer_wallet");--> statement-breakpoint
CREATE INDEX "invoice_audit_logs_owner_idx" ON "invoice_audit_logs" USING btree ("freelancer_wallet","created_at","id");--> statement-breakpoint
-- Hand-written below (docs/decisions.md, "Statistics at scale"): the statistics kept by the
-- database itself. Every statement that writes invoices or payments, whichever service or
-- job or test runs it, appends to invoice_stats / payment_stats what it changed, signed, in
-- its own transaction: no path can forget it, and rows are only ever appended (no writer
-- waits for another). invoice_stats_sql / payment_stats_sql are the one definition of what a
-- row contributes; the triggers, compact_invoice_stats and rebuild_invoice_stats use them.
-- `src` is a query of signed rows: column `s` (1 or -1), then an invoice's columns
-- (invoice_stats_sql) or a payment's and its invoice's (payment_stats_sql, PAYMENT_STATS_COLUMNS).
CREATE OR REPLACE FUNCTION invoice_stats_sql(src text) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($q$
INSERT INTO invoice_stats (freelancer_wallet, network_passphrase, kind, currency, price_currency,
  status, invoices, net, due, credited_over)
SELECT * FROM (
  SELECT i.freelancer_wallet, i.network_passphrase, i.kind, i.currency,
    coalesce(i.price_currency, '') AS price_currency, i.status,
    sum(i.s) AS invoices,
    sum(i.s * (i.total - i.amount_credited)) AS net,
    sum(i.s * greatest(i.total - i.amount_credited - CASE WHEN i.price_currency IS NULL
      THEN i.amount_paid ELSE round(i.amount_paid, 2) END, 0)) AS due,
    sum(i.s * greatest(i.amount_credited - greatest(i.total - i.amount_paid, 0), 0)) AS credited_over
  FROM (%s) i
  WHERE i.deleted_at IS NULL
  GROUP BY 1, 2, 3, 4, 5, 6
) g WHERE (g.invoices, g.net, g.due, g.credited_over) <> (0, 0, 0, 0)
$q$, src)
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION payment_stats_sql(src text) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($q$
INSERT INTO payment_stats (freelancer_wallet, network_passphrase, kind, currency, price_currency,
  month, fiat_currency, payments, kept, kept_in_asset, kept_value, fiat_kept)
SELECT * FROM (
  SELECT x.freelancer_wallet, x.network_passphrase, x.kind, x.currency,
    coalesce(x.price_currency, '') AS price_currency,
    date_trunc('month', x.confirmed_at AT TIME ZONE 'UTC')::date AS month,
    CASE WHEN x.fiat_value IS NOT NULL AND x.fiat_currency IS NOT NULL THEN x.fiat_currency ELSE '' END AS fiat_currency,
    sum(x.s) AS payments,
    sum(x.s * (x.amount - x.amount_refunded)) AS kept,
    sum(x.s * CASE WHEN x.asset = x.currency THEN x.amount - x.amount_refunded ELSE 0 END) AS kept_in_asset,
    sum(x.s * CASE WHEN x.price_currency IS NOT NULL AND x.price_value IS NOT NULL AND x.amount > 0
      THEN x.price_value * (x.amount - x.amount_refunded) / x.amount ELSE 0 END) AS kept_value,
    sum(x.s * CASE WHEN x.fiat_value IS NOT NULL AND x.fiat_currency IS NOT NULL AND x.amount > 0
      THEN round(x.fiat_value * (x.amount - x.amount_refunded) / x.amount, 2) ELSE 0 END) AS fiat_kept
  FROM (%s) x
  WHERE x.applied AND x.deleted_at IS NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7
) g WHERE (g.payments, g.kept, g.kept_in_asset, g.kept_value, g.fiat_kept) <> (0, 0, 0, 0, 0)
$q$, src)
$fn$;
--> statement-breakpoint
-- What payment_stats_sql reads of a payment `p` and its invoice `i`.
CREATE OR REPLACE FUNCTION payment_stats_columns() RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
SELECT 'p.applied, p.amount, p.amount_refunded, p.asset, p.confirmed_at, p.fiat_value, p.fiat_currency, p.price_value, i.freelancer_wallet, i.network_passphrase, i.kind, i.currency, i.price_currency, i.deleted_at'
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION invoices_stats_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  cols text := payment_stats_columns();
  moved boolean;
  grp text := '(i.freelancer_wallet, i.network_passphrase, i.kind, i.currency, i.price_currency, i.deleted_at IS NULL) IS DISTINCT FROM (o.freelancer_wallet, o.network_passphrase, o.kind, o.currency, o.price_currency, o.deleted_at IS NULL)';
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE invoice_stats_sql('SELECT 1 AS s, n.* FROM new_rows n');
  ELSIF TG_OP = 'DELETE' THEN
    -- Its payments left with invoices_stats_delete (before the row went).
    EXECUTE invoice_stats_sql('SELECT -1 AS s, o.* FROM old_rows o');
  ELSE
    EXECUTE invoice_stats_sql('SELECT 1 AS s, n.* FROM new_rows n UNION ALL SELECT -1 AS s, o.* FROM old_rows o');
    -- An invoice that changed group (owner, network, kind, currency, pricing, deleted) takes
    -- its payments along (rare: most updates change a status or an amount, and this is skipped).
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM new_rows i JOIN old_rows o ON o.id = i.id WHERE %s)', grp)
      INTO moved;
    IF NOT moved THEN
      RETURN NULL;
    END IF;
    EXECUTE payment_stats_sql(format(
      'SELECT 1 AS s, %1$s FROM new_rows i JOIN old_rows o ON o.id = i.id JOIN payments p ON p.invoice_id = i.id WHERE %2$s
       UNION ALL
       SELECT -1 AS s, %1$s FROM old_rows i JOIN new_rows o ON o.id = i.id JOIN payments p ON p.invoice_id = i.id WHERE %2$s',
      cols, grp));
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
-- A hard delete (the app never makes one) takes the invoice's payments out while they are still
-- there: the cascade deletes them once the invoice is gone, when payments_stats_change no longer
-- finds it.
CREATE OR REPLACE FUNCTION invoices_stats_delete() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE payment_stats_sql(format(
    'SELECT -1 AS s, %s FROM payments p JOIN invoices i ON i.id = p.invoice_id WHERE i.id = $1',
    payment_stats_columns())) USING OLD.id;
  RETURN OLD;
END
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION payments_stats_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  plus text := format('SELECT 1 AS s, %s FROM new_rows p JOIN invoices i ON i.id = p.invoice_id', payment_stats_columns());
  minus text := format('SELECT -1 AS s, %s FROM old_rows p JOIN invoices i ON i.id = p.invoice_id', payment_stats_columns());
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE payment_stats_sql(plus);
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE payment_stats_sql(minus);
  ELSE
    EXECUTE payment_stats_sql(plus || ' UNION ALL ' || minus);
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER invoices_stats_insert AFTER INSERT ON invoices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION invoices_stats_change();
--> statement-breakpoint
CREATE TRIGGER invoices_stats_update AFTER UPDATE ON invoices
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION invoices_stats_change();
--> statement-breakpoint
CREATE TRIGGER invoices_stats_delete_rows AFTER DELETE ON invoices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION invoices_stats_change();
--> statement-breakpoint
CREATE TRIGGER invoices_stats_delete BEFORE DELETE ON invoices
  FOR EACH ROW EXECUTE FUNCTION invoices_stats_delete();
--> statement-breakpoint
CREATE TRIGGER payments_stats_insert AFTER INSERT ON payments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_stats_change();
--> statement-breakpoint
CREATE TRIGGER payments_stats_update AFTER UPDATE ON payments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_stats_change();
--> statement-breakpoint
CREATE TRIGGER payments_stats_delete AFTER DELETE ON payments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payments_stats_change();
--> statement-breakpoint
-- Folds a wallet's rows into one per group (the statistics call it when a wallet's rows pile
-- up). One statement per table: concurrent writers' rows are never lost (a row appended after
-- its snapshot is not deleted). The lock keeps it apart from rebuild_invoice_stats.
CREATE OR REPLACE FUNCTION compact_invoice_stats(wallet text) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(72210036, hashtext(wallet));
  WITH gone AS (DELETE FROM invoice_stats WHERE freelancer_wallet = wallet RETURNING *)
  INSERT INTO invoice_stats
  SELECT * FROM (
    SELECT freelancer_wallet, network_passphrase, kind, currency, price_currency, status,
      sum(invoices) AS invoices, sum(net) AS net, sum(due) AS due, sum(credited_over) AS credited_over
    FROM gone GROUP BY 1, 2, 3, 4, 5, 6
  ) g WHERE (g.invoices, g.net, g.due, g.credited_over) <> (0, 0, 0, 0);
  WITH gone AS (DELETE FROM payment_stats WHERE freelancer_wallet = wallet RETURNING *)
  INSERT INTO payment_stats
  SELECT * FROM (
    SELECT freelancer_wallet, network_passphrase, kind, currency, price_currency, month, fiat_currency,
      sum(payments) AS payments, sum(kept) AS kept, sum(kept_in_asset) AS kept_in_asset,
      sum(kept_value) AS kept_value, sum(fiat_kept) AS fiat_kept
    FROM gone GROUP BY 1, 2, 3, 4, 5, 6, 7
  ) g WHERE (g.payments, g.kept, g.kept_in_asset, g.kept_value, g.fiat_kept) <> (0, 0, 0, 0, 0);
END
$fn$;
--> statement-breakpoint
-- Recomputes a wallet's rows from its invoices and payments (scripts/rebuild-stats.ts, the
-- tests): each table's delete and recomputation in one statement, one snapshot, so a write
-- committed meanwhile is counted once (in the recomputation, or by its own appended row).
CREATE OR REPLACE FUNCTION rebuild_invoice_stats(wallet text) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(72210036, hashtext(wallet));
  EXECUTE 'WITH gone AS (DELETE FROM invoice_stats WHERE freelancer_wallet = $1) '
    || invoice_stats_sql('SELECT 1 AS s, i.* FROM invoices i WHERE i.freelancer_wallet = $1') USING wallet;
  EXECUTE 'WITH gone AS (DELETE FROM payment_stats WHERE freelancer_wallet = $1) '
    || payment_stats_sql(format('SELECT 1 AS s, %s FROM payments p JOIN invoices i ON i.id = p.invoice_id WHERE i.freelancer_wallet = $1', payment_stats_columns()))
    USING wallet;
END
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION invoice_audit_logs_owner() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF NEW.freelancer_wallet IS NULL THEN
    SELECT i.freelancer_wallet INTO NEW.freelancer_wallet FROM invoices i WHERE i.id = NEW.invoice_id;
  END IF;
  RETURN NEW;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER invoice_audit_logs_owner BEFORE INSERT ON invoice_audit_logs
  FOR EACH ROW EXECUTE FUNCTION invoice_audit_logs_owner();
--> statement-breakpoint
UPDATE invoice_audit_logs l SET freelancer_wallet = i.freelancer_wallet FROM invoices i
  WHERE i.id = l.invoice_id AND l.freelancer_wallet IS NULL;
--> statement-breakpoint
-- The rows existing books start from (the tables are empty: one statement each).
DO $fn$
BEGIN
  EXECUTE invoice_stats_sql('SELECT 1 AS s, i.* FROM invoices i');
  EXECUTE payment_stats_sql(format('SELECT 1 AS s, %s FROM payments p JOIN invoices i ON i.id = p.invoice_id', payment_stats_columns()));
END
$fn$;
