ALTER TABLE "invoices" ADD COLUMN "link_reusable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "link_max_payments" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "link_open_amount" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "link_min_amount" numeric(18, 7);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "parent_link_id" text;--> statement-breakpoint
CREATE INDEX "invoices_parent_link_idx" ON "invoices" USING btree ("parent_link_id","created_at" DESC NULLS LAST) WHERE "invoices"."parent_link_id" is not null;