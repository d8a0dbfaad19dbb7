import { sql } from "drizzle-orm";
import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { idColumn, ts } from "./columns";

/**
 * Team access (docs/decisions.md, Team access): a freelancer (`owner_wallet`) lets another
 * wallet open its books as `accountant` (read only) or `member` (everything but keys,
 * webhooks, profile, team and refunds). An invitation not accepted by `expires_at` is
 * expired; a revoked row stays for the record. One live (unrevoked) row per owner and member;
 * the member's index is what every request with a books token reads (lib/services/team/).
 */
export const teamMembers = pgTable(
  "team_members",
  {
    id: idColumn(),
    ownerWallet: text("owner_wallet").notNull(),
    memberWallet: text("member_wallet").notNull(),
    role: text("role", { enum: ["accountant", "member"] }).notNull(),
    invitedAt: ts("invited_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
    acceptedAt: ts("accepted_at"),
    revokedAt: ts("revoked_at"),
    invitedBy: text("invited_by").notNull(),
  },
  (t) => [
    uniqueIndex("team_members_live_key")
      .on(t.ownerWallet, t.memberWallet)
      .where(sql`${t.revokedAt} is null`),
    index("team_members_member_idx").on(t.memberWallet, t.ownerWallet),
    index("team_members_owner_idx").on(t.ownerWallet, t.invitedAt),
  ],
);
