DROP INDEX "payments_transaction_hash_key";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "amount_paid" numeric(18, 7) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "payment_tolerance" numeric(5, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "operation_index" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "asset_issuer" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "applied" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "unapplied_reason" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "amount_refunded" numeric(18, 7) DEFAULT '0' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_transaction_operation_key" ON "payments" USING btree ("transaction_hash","operation_index");--> statement-breakpoint
CREATE INDEX "payments_transaction_hash_idx" ON "payments" USING btree ("transaction_hash");