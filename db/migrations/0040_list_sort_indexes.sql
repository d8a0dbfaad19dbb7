DROP INDEX "invoices_owner_due_idx";--> statement-breakpoint
CREATE INDEX "invoices_owner_due_asc_idx" ON "invoices" USING btree ("freelancer_wallet",coalesce("due_date", 'infinity'::timestamptz),"id") WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_owner_due_desc_idx" ON "invoices" USING btree ("freelancer_wallet",coalesce("due_date", '-infinity'::timestamptz),"id") WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_owner_currency_total_idx" ON "invoices" USING btree ("freelancer_wallet","currency","total","id") WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_owner_status_id_idx" ON "invoices" USING btree ("freelancer_wallet","status","id") WHERE "invoices"."deleted_at" is null;