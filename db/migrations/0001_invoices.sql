CREATE SEQUENCE "public"."invoice_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "clients" (
	"id" text PRIMARY KEY NOT NULL,
	"freelancer_wallet" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"company" text,
	"address" text,
	"is_favorite" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"type" text NOT NULL,
	"wallet" text NOT NULL,
	"invoice_id" text,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_audit_logs" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"action" text NOT NULL,
	"actor_wallet" text NOT NULL,
	"changes" jsonb,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_line_items" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"position" integer NOT NULL,
	"description" text NOT NULL,
	"quantity" numeric(10, 2) NOT NULL,
	"rate" numeric(18, 7) NOT NULL,
	"amount" numeric(18, 7) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text DEFAULT 'INVOICE' NOT NULL,
	"invoice_number" text NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"freelancer_wallet" text NOT NULL,
	"freelancer_name" text,
	"freelancer_email" text,
	"freelancer_company" text,
	"client_name" text NOT NULL,
	"client_email" text NOT NULL,
	"client_company" text,
	"client_address" text,
	"client_wallet" text,
	"title" text NOT NULL,
	"description" text,
	"notes" text,
	"subtotal" numeric(18, 7) NOT NULL,
	"tax_rate" numeric(5, 2) DEFAULT '0' NOT NULL,
	"tax_amount" numeric(18, 7) DEFAULT '0' NOT NULL,
	"discount" numeric(18, 7) DEFAULT '0' NOT NULL,
	"total" numeric(18, 7) NOT NULL,
	"currency" text DEFAULT 'XLM' NOT NULL,
	"network_passphrase" text NOT NULL,
	"due_date" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"expired_at" timestamp with time zone,
	"transaction_hash" text,
	"ledger_number" integer,
	"payer_wallet" text,
	"link_reference" text,
	"link_expires_at" timestamp with time zone,
	"activate_new_accounts" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"transaction_hash" text NOT NULL,
	"ledger_number" integer NOT NULL,
	"from_wallet" text NOT NULL,
	"to_wallet" text NOT NULL,
	"amount" numeric(18, 7) NOT NULL,
	"asset" text NOT NULL,
	"status" text DEFAULT 'CONFIRMED' NOT NULL,
	"confirmed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_audit_logs" ADD CONSTRAINT "invoice_audit_logs_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_line_items" ADD CONSTRAINT "invoice_line_items_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "clients_owner_email_key" ON "clients" USING btree ("freelancer_wallet","email");--> statement-breakpoint
CREATE INDEX "clients_owner_order_idx" ON "clients" USING btree ("freelancer_wallet","is_favorite" desc,"created_at" desc);--> statement-breakpoint
CREATE INDEX "events_seq_idx" ON "events" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "events_invoice_idx" ON "events" USING btree ("invoice_id","seq");--> statement-breakpoint
CREATE INDEX "events_wallet_idx" ON "events" USING btree ("wallet","seq");--> statement-breakpoint
CREATE INDEX "invoice_audit_logs_invoice_idx" ON "invoice_audit_logs" USING btree ("invoice_id","created_at");--> statement-breakpoint
CREATE INDEX "invoice_audit_logs_actor_idx" ON "invoice_audit_logs" USING btree ("actor_wallet","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoice_line_items_invoice_idx" ON "invoice_line_items" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_invoice_number_key" ON "invoices" USING btree ("invoice_number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_transaction_hash_key" ON "invoices" USING btree ("transaction_hash");--> statement-breakpoint
CREATE INDEX "invoices_owner_created_idx" ON "invoices" USING btree ("freelancer_wallet","created_at" DESC NULLS LAST,"id") WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_owner_updated_idx" ON "invoices" USING btree ("freelancer_wallet","updated_at","id") WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_owner_due_idx" ON "invoices" USING btree ("freelancer_wallet","due_date","id") WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_owner_total_idx" ON "invoices" USING btree ("freelancer_wallet","total","id") WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_owner_number_idx" ON "invoices" USING btree ("freelancer_wallet","invoice_number") WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_owner_status_idx" ON "invoices" USING btree ("freelancer_wallet","status","created_at" DESC NULLS LAST) WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_owner_currency_idx" ON "invoices" USING btree ("freelancer_wallet","currency","created_at" DESC NULLS LAST) WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_owner_client_email_idx" ON "invoices" USING btree ("freelancer_wallet","client_email") WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_status_due_idx" ON "invoices" USING btree ("status","due_date") WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_network_status_idx" ON "invoices" USING btree ("network_passphrase","status") WHERE "invoices"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_transaction_hash_key" ON "payments" USING btree ("transaction_hash");--> statement-breakpoint
CREATE INDEX "payments_invoice_idx" ON "payments" USING btree ("invoice_id");