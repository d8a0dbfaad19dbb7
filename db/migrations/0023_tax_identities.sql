ALTER TABLE "profiles" ADD COLUMN "tax_scheme" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "tax_country" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "postal_address" jsonb;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "tax_id" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "tax_scheme" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "postal_address" jsonb;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "is_business" boolean;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "client_tax_id" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "client_tax_scheme" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "client_postal_address" jsonb;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "client_is_business" boolean;