ALTER TABLE "profiles" ADD COLUMN "default_language" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;