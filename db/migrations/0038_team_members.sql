CREATE TABLE "team_members" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_wallet" text NOT NULL,
	"member_wallet" text NOT NULL,
	"role" text NOT NULL,
	"invited_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"invited_by" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "team_members_live_key" ON "team_members" USING btree ("owner_wallet","member_wallet") WHERE "team_members"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "team_members_member_idx" ON "team_members" USING btree ("member_wallet","owner_wallet");--> statement-breakpoint
CREATE INDEX "team_members_owner_idx" ON "team_members" USING btree ("owner_wallet","invited_at");