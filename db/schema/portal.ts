import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { idColumn, ts } from "./columns";

export const PORTAL_SESSION_VIA = ["email", "wallet"] as const;

/**
 * The client portal's sign-in links (docs/decisions.md, Client portal): one per freelancer and
 * client email, single use, 30 minutes. The link's token is `<id>.<mac>` (the mac an HMAC of the
 * id under JWT_SECRET, lib/services/portal/tokens.ts); only its SHA-256 is stored, so the
 * table alone opens nothing.
 */
export const portalLinks = pgTable(
  "portal_links",
  {
    id: idColumn(),
    tokenHash: text("token_hash").notNull(),
    ownerWallet: text("owner_wallet").notNull(),
    /** Lower-cased and trimmed. */
    clientEmail: text("client_email").notNull(),
    createdAt: ts("created_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [
    uniqueIndex("portal_links_token_hash_key").on(t.tokenHash),
    index("portal_links_email_idx").on(t.clientEmail, t.createdAt),
  ],
);

/**
 * A client's portal sessions (the `portal_session` cookie, 7 days): the cookie holds a random
 * secret, the row its SHA-256. One freelancer and one client email each; the freelancer
 * revokes them (`revokedAt`), which the next portal request sees.
 */
export const portalSessions = pgTable(
  "portal_sessions",
  {
    id: idColumn(),
    tokenHash: text("token_hash").notNull(),
    ownerWallet: text("owner_wallet").notNull(),
    /** Lower-cased and trimmed. */
    clientEmail: text("client_email").notNull(),
    via: text("via", { enum: PORTAL_SESSION_VIA }).notNull(),
    createdAt: ts("created_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
    lastSeenAt: ts("last_seen_at"),
  },
  (t) => [
    uniqueIndex("portal_sessions_token_hash_key").on(t.tokenHash),
    index("portal_sessions_owner_client_idx")
      .on(t.ownerWallet, t.clientEmail)
      .where(sql`${t.revokedAt} is null`),
  ],
);

export const CLIENT_AUDIT_ACTIONS = ["statement_sent", "portal_sessions_revoked"] as const;

/** What was done about a saved client outside its invoices (a statement sent, portal access revoked). */
export const clientAuditLogs = pgTable(
  "client_audit_logs",
  {
    id: idColumn(),
    wallet: text("wallet").notNull(),
    clientId: text("client_id").notNull(),
    action: text("action", { enum: CLIENT_AUDIT_ACTIONS }).notNull(),
    actorWallet: text("actor_wallet").notNull(),
    details: jsonb("details").$type<Record<string, unknown> | null>(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("client_audit_logs_client_idx").on(t.clientId, t.createdAt)],
);
