DROP INDEX "invoices_owner_created_idx";--> statement-breakpoint
CREATE INDEX "invoices_owner_kind_idx" ON "invoices" USING btree ("freelancer_wallet","kind") WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_owner_created_idx" ON "invoices" USING btree ("freelancer_wallet","created_at","id") WHERE "invoices"."deleted_at" is null;