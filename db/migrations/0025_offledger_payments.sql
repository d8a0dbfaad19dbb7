ALTER TABLE "payments" ALTER COLUMN "transaction_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "ledger_number" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "from_wallet" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "method" text DEFAULT 'stellar' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "recorded_by" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "recorded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "voided_by" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_ledger_facts_by_method" CHECK (("payments"."method" = 'stellar') = ("payments"."transaction_hash" IS NOT NULL AND "payments"."ledger_number" IS NOT NULL AND "payments"."from_wallet" IS NOT NULL));