ALTER TABLE "invoices" ADD COLUMN "muxed_id" bigint DEFAULT greatest(1, floor(random() * 2147483648)::bigint * 4294967296 + floor(random() * 4294967296)::bigint) NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "from_address" text;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_network_muxed_id_key" ON "invoices" USING btree ("network_passphrase","muxed_id");