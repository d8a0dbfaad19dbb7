CREATE TABLE "email_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"wallet" text NOT NULL,
	"invoice_id" text,
	"kind" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_error" text,
	"message_id" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"wallet" text PRIMARY KEY NOT NULL,
	"display_name" text,
	"company" text,
	"email" text,
	"address" text,
	"tax_id" text,
	"logo" "bytea",
	"logo_type" text,
	"logo_updated_at" timestamp with time zone,
	"reporting_currency" text DEFAULT 'USD' NOT NULL,
	"payment_terms_days" integer,
	"default_reminders" jsonb,
	"default_payment_tolerance" numeric(5, 2),
	"email_footer" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recurring_schedules" (
	"id" text PRIMARY KEY NOT NULL,
	"wallet" text NOT NULL,
	"network_passphrase" text NOT NULL,
	"template" jsonb NOT NULL,
	"interval" text NOT NULL,
	"interval_count" integer DEFAULT 1 NOT NULL,
	"start_date" timestamp with time zone NOT NULL,
	"end_date" timestamp with time zone,
	"count" integer,
	"due_in_days" integer NOT NULL,
	"auto_send" boolean DEFAULT true NOT NULL,
	"next_period" integer DEFAULT 0 NOT NULL,
	"next_run_at" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "email_client" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "reminders" jsonb;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "reminders_stopped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "recurring_id" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "recurring_period" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "email_messages_dedupe_key" ON "email_messages" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "email_messages_due_idx" ON "email_messages" USING btree ("next_attempt_at") WHERE "email_messages"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "email_messages_invoice_idx" ON "email_messages" USING btree ("invoice_id","created_at");--> statement-breakpoint
CREATE INDEX "recurring_schedules_wallet_idx" ON "recurring_schedules" USING btree ("wallet","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "recurring_schedules_due_idx" ON "recurring_schedules" USING btree ("next_run_at") WHERE "recurring_schedules"."deleted_at" is null and "recurring_schedules"."paused_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_recurring_period_key" ON "invoices" USING btree ("recurring_id","recurring_period") WHERE "invoices"."recurring_id" is not null;