-- Hand-written (docs/decisions.md, "Statistics at scale", "A statement that updates a very large
-- number of invoices"): the update trigger of migration 0037 asked whether an invoice changed
-- group with `EXISTS (new_rows JOIN old_rows ON id)`. Transition tables have no index and no
-- statistics, and an EXISTS is planned for its first row, so that join ran as a nested loop:
-- N x N comparisons when nothing moved (10,000 invoices in one UPDATE: 21.6 s; 20,000: 89 s).
-- Now no statement joins the two transition tables: whether something moved is a count of
-- (id, group) pairs met on one side only (one aggregate over both tables), and when something
-- did, every updated invoice's payments are added with the new row's group and taken out with
-- the old row's, as the invoices themselves are (invoice_stats_sql): an invoice that kept its
-- group adds and takes out the same amounts in the same group, which cancel to the exact
-- numeric zero that payment_stats_sql drops. Each statement reads the transition tables once:
-- O(N), and the payments of the updated invoices by their index or one hash join.
CREATE OR REPLACE FUNCTION invoices_stats_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  moved boolean;
  grp text := 'x.id, x.freelancer_wallet, x.network_passphrase, x.kind, x.currency, x.price_currency, x.deleted_at IS NULL AS live';
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
    -- GROUP BY takes NULLs as equal, as IS DISTINCT FROM did.
    EXECUTE format(
      'SELECT EXISTS (SELECT FROM (SELECT 1 AS s, %1$s FROM new_rows x UNION ALL SELECT -1 AS s, %1$s FROM old_rows x) u
         GROUP BY id, freelancer_wallet, network_passphrase, kind, currency, price_currency, live HAVING sum(s) <> 0)', grp)
      INTO moved;
    IF NOT moved THEN
      RETURN NULL;
    END IF;
    EXECUTE payment_stats_sql(format(
      'SELECT i.s, %s FROM (SELECT 1 AS s, n.* FROM new_rows n UNION ALL SELECT -1 AS s, o.* FROM old_rows o) i
       JOIN payments p ON p.invoice_id = i.id',
      payment_stats_columns()));
  END IF;
  RETURN NULL;
END
$fn$;
