CREATE TABLE "credit_note_counters" (
	"wallet" text PRIMARY KEY NOT NULL,
	"last" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"wallet" text NOT NULL,
	"number" text NOT NULL,
	"invoice_id" text NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"lines" jsonb NOT NULL,
	"subtotal" numeric(18, 7) NOT NULL,
	"discount" numeric(18, 7) DEFAULT '0' NOT NULL,
	"tax_breakdown" jsonb NOT NULL,
	"tax_amount" numeric(18, 7) NOT NULL,
	"total" numeric(18, 7) NOT NULL,
	"unit" text NOT NULL,
	"tax_currency" text,
	"tax_exchange_rate" numeric(30, 12),
	"tax_amount_in_tax_currency" numeric(20, 2),
	"tax_breakdown_in_tax_currency" jsonb,
	"refund_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "amount_credited" numeric(18, 7) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_wallet_number_key" ON "credit_notes" USING btree ("wallet","number");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_refund_key" ON "credit_notes" USING btree ("refund_id") WHERE "credit_notes"."refund_id" is not null;--> statement-breakpoint
CREATE INDEX "credit_notes_invoice_idx" ON "credit_notes" USING btree ("invoice_id","created_at");--> statement-breakpoint
CREATE INDEX "credit_notes_owner_created_idx" ON "credit_notes" USING btree ("wallet","created_at","id");