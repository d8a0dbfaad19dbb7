CREATE TABLE "client_audit_logs" (
	"id" text PRIMARY KEY NOT NULL,
	"wallet" text NOT NULL,
	"client_id" text NOT NULL,
	"action" text NOT NULL,
	"actor_wallet" text NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_links" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"owner_wallet" text NOT NULL,
	"client_email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "portal_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"owner_wallet" text NOT NULL,
	"client_email" text NOT NULL,
	"via" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "client_audit_logs_client_idx" ON "client_audit_logs" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "portal_links_token_hash_key" ON "portal_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "portal_links_email_idx" ON "portal_links" USING btree ("client_email","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "portal_sessions_token_hash_key" ON "portal_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "portal_sessions_owner_client_idx" ON "portal_sessions" USING btree ("owner_wallet","client_email") WHERE "portal_sessions"."revoked_at" is null;