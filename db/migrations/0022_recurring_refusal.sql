ALTER TABLE "recurring_schedules" ADD COLUMN "refusal_reason" text;--> statement-breakpoint
ALTER TABLE "recurring_schedules" ADD COLUMN "refused_period" integer;--> statement-breakpoint
ALTER TABLE "recurring_schedules" ADD COLUMN "refused_at" timestamp with time zone;