ALTER TABLE "payments" ALTER COLUMN "price_value" SET DATA TYPE numeric(18, 7);--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "network" text;