CREATE TABLE "invoice_number_counters" (
	"wallet" text PRIMARY KEY NOT NULL,
	"last" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "invoices_invoice_number_key";--> statement-breakpoint
DROP INDEX "invoices_owner_number_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_wallet_number_key" ON "invoices" USING btree ("freelancer_wallet","invoice_number");--> statement-breakpoint
DROP SEQUENCE "public"."invoice_number_seq";