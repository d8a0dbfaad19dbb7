CREATE TABLE "quote_audit_logs" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"quote_id" text NOT NULL,
	"action" text NOT NULL,
	"actor_wallet" text NOT NULL,
	"changes" jsonb,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quote_number_counters" (
	"wallet" text PRIMARY KEY NOT NULL,
	"last" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"wallet" text NOT NULL,
	"number" text NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"body" jsonb NOT NULL,
	"client_name" text NOT NULL,
	"client_email" text NOT NULL,
	"title" text NOT NULL,
	"language" text NOT NULL,
	"currency" text NOT NULL,
	"price_currency" text,
	"network_passphrase" text NOT NULL,
	"line_items" jsonb NOT NULL,
	"subtotal" numeric(18, 7) NOT NULL,
	"tax_rate" numeric(5, 2) NOT NULL,
	"tax_amount" numeric(18, 7) NOT NULL,
	"discount" numeric(18, 7) NOT NULL,
	"total" numeric(18, 7) NOT NULL,
	"tax_breakdown" jsonb,
	"valid_until" date NOT NULL,
	"on_accept" text DEFAULT 'draft' NOT NULL,
	"sent_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	"accepted_name" text,
	"accepted_ip" text,
	"declined_at" timestamp with time zone,
	"decline_reason" text,
	"expired_at" timestamp with time zone,
	"invoice_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "quote_id" text;--> statement-breakpoint
ALTER TABLE "quote_audit_logs" ADD CONSTRAINT "quote_audit_logs_quote_id_sales_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."sales_quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_quotes" ADD CONSTRAINT "sales_quotes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quote_audit_logs_quote_idx" ON "quote_audit_logs" USING btree ("quote_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_quotes_wallet_number_key" ON "sales_quotes" USING btree ("wallet","number");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_quotes_invoice_key" ON "sales_quotes" USING btree ("invoice_id") WHERE "sales_quotes"."invoice_id" is not null;--> statement-breakpoint
CREATE INDEX "sales_quotes_owner_created_idx" ON "sales_quotes" USING btree ("wallet","created_at","id") WHERE "sales_quotes"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "sales_quotes_expiry_idx" ON "sales_quotes" USING btree ("valid_until") WHERE "sales_quotes"."status" = 'SENT' and "sales_quotes"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_quote_key" ON "invoices" USING btree ("quote_id") WHERE "invoices"."quote_id" is not null;