CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"wallet_address" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"network" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "invoices_transaction_hash_key";--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_hash_key" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "api_keys_wallet_idx" ON "api_keys" USING btree ("wallet_address","created_at");--> statement-breakpoint
CREATE INDEX "invoices_transaction_hash_idx" ON "invoices" USING btree ("transaction_hash");