ALTER TABLE "profiles" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "buyer_reference" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "buyer_reference" text;