ALTER TABLE "payments" ADD COLUMN "inner_transaction_hash" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "operation_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_operation_id_key" ON "payments" USING btree ("operation_id");