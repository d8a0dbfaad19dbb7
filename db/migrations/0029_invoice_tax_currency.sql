ALTER TABLE "invoices" ADD COLUMN "tax_currency" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "tax_exchange_rate" numeric(30, 12);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "tax_rate_source" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "tax_rate_at" timestamp with time zone;