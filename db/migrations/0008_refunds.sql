CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"invoice_id" text NOT NULL,
	"wallet" text NOT NULL,
	"amount" numeric(18, 7) NOT NULL,
	"asset" text NOT NULL,
	"asset_issuer" text,
	"destination" text NOT NULL,
	"memo" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"transaction_xdr" text NOT NULL,
	"transaction_hash" text,
	"ledger_number" integer,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_memo_key" ON "refunds" USING btree ("memo");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_transaction_hash_key" ON "refunds" USING btree ("transaction_hash");--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id","status");--> statement-breakpoint
CREATE INDEX "refunds_invoice_idx" ON "refunds" USING btree ("invoice_id");