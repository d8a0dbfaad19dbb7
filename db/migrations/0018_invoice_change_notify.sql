-- Custom SQL migration file, put your code below! --
-- Every change to what GET /api/payments/{invoiceId}/status answers (the invoice row, its
-- payments, refunds and quotes) sends NOTIFY invoice_changes '<invoice id>' in the changing
-- transaction: PostgreSQL delivers it to every listening app instance only once that
-- transaction commits, and never if it rolls back (docs/decisions.md, "Pushed status").
CREATE OR REPLACE FUNCTION notify_invoice_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('invoice_changes', to_jsonb(COALESCE(NEW, OLD)) ->> TG_ARGV[0]);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER invoices_notify_change AFTER UPDATE ON invoices
  FOR EACH ROW EXECUTE FUNCTION notify_invoice_change('id');
--> statement-breakpoint
CREATE TRIGGER payments_notify_change AFTER INSERT OR UPDATE OR DELETE ON payments
  FOR EACH ROW EXECUTE FUNCTION notify_invoice_change('invoice_id');
--> statement-breakpoint
CREATE TRIGGER refunds_notify_change AFTER INSERT OR UPDATE OR DELETE ON refunds
  FOR EACH ROW EXECUTE FUNCTION notify_invoice_change('invoice_id');
--> statement-breakpoint
CREATE TRIGGER quotes_notify_change AFTER INSERT OR UPDATE OR DELETE ON quotes
  FOR EACH ROW EXECUTE FUNCTION notify_invoice_change('invoice_id');
