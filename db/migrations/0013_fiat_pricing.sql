CREATE TABLE "quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"price_currency" text NOT NULL,
	"asset" text NOT NULL,
	"rate" numeric(30, 12) NOT NULL,
	"asset_amount" numeric(18, 7) NOT NULL,
	"fiat_amount" numeric(18, 2) NOT NULL,
	"source" text NOT NULL,
	"rate_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "price_currency" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "quote_ttl_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "fiat_currency" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "fiat_value" numeric(18, 2);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "rate" numeric(30, 12);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "rate_source" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "rate_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "price_value" numeric(18, 2);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "price_rate" numeric(30, 12);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "quote_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "paid_late" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quotes_invoice_idx" ON "quotes" USING btree ("invoice_id","created_at");