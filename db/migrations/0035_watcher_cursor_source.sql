-- drizzle-kit generate wrote this change with the primary key's drop left for a person to fill
-- in and the new key before its column; its statements, in an order PostgreSQL can run.
ALTER TABLE "watcher_cursors" DROP CONSTRAINT "watcher_cursors_pkey";--> statement-breakpoint
ALTER TABLE "watcher_cursors" ADD COLUMN "source" text DEFAULT 'horizon' NOT NULL;--> statement-breakpoint
ALTER TABLE "watcher_cursors" ADD CONSTRAINT "watcher_cursors_network_source_pk" PRIMARY KEY("network","source");--> statement-breakpoint
ALTER TABLE "watcher_cursors" ADD COLUMN "gap_from_ledger" integer;--> statement-breakpoint
ALTER TABLE "watcher_cursors" ADD COLUMN "gap_to_ledger" integer;--> statement-breakpoint
ALTER TABLE "watcher_cursors" ADD COLUMN "gap_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "watcher_cursors" ADD COLUMN "gap_backfill" text;
