import type { ApiKeyScope } from "./api-key-scopes";

/**
 * Team access (docs/decisions.md, Team access): who, besides the owner of the books, may call
 * an operation. Decided once per operation here and enforced once, in the request pipeline
 * (lib/http/endpoint.ts); the OpenAPI document describes each operation's roles from the same
 * function (`rolesFor`), so the two cannot disagree. Pure: no I/O.
 */

export const TEAM_ROLES = ["accountant", "member"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** read: owner, member, accountant; write: owner and member; owner: the owner alone. */
export type TeamAccess = "read" | "write" | "owner";

/** What of an operation the rule reads (lib/http/route.ts's Operation has these fields). */
export type TeamAccessInput = {
  method: string | readonly string[];
  scope?: readonly ApiKeyScope[];
  /** An explicit decision (refunds: `owner`; signing out one's token: `read`). */
  team?: TeamAccess;
};

/** Scopes that only ever name the owner's own settings: webhooks and the profile. */
const OWNER_SCOPES: readonly ApiKeyScope[] = ["webhooks:write", "profile:write"];

/**
 * The default, when an operation does not say: no API-key scope (keys, sessions, team) is the
 * owner's alone; scopes only of webhooks or the profile are the owner's for writes (and for
 * reads, but for the profile's GET, whose other scopes make it a read); a GET is a read; any
 * other scoped operation is a write.
 */
export function teamAccessOf(op: TeamAccessInput): TeamAccess {
  if (op.team) return op.team;
  if (!op.scope || op.scope.length === 0) return "owner";
  if (op.scope.every((s) => OWNER_SCOPES.includes(s))) return "owner";
  const methods = typeof op.method === "string" ? [op.method] : op.method;
  return methods.every((m) => m === "GET") ? "read" : "write";
}

/** The roles that may call an operation of this access (the owner always may). */
export function rolesFor(access: TeamAccess): TeamRole[] {
  if (access === "read") return ["accountant", "member"];
  if (access === "write") return ["member"];
  return [];
}

/** The 403 for a role on an operation it may not call; null when allowed. */
export function teamRefusal(role: TeamRole, access: TeamAccess): string | null {
  if (rolesFor(access).includes(role)) return null;
  if (role === "accountant") {
    return "Your role (accountant) can only read these books: ask their owner to make this change";
  }
  return "Your role (member) cannot do this: API keys, webhooks, the profile, the team and refunds are for the owner of these books";
}

/** 403: a books token whose invitation has been revoked or has expired. */
export const BOOKS_CLOSED =
  "You no longer have access to these books (the invitation was revoked or has expired): switch back to your own books";

/** The state of an invitation at `now`. */
export type TeamState = "pending" | "active" | "expired" | "revoked";

export function teamStateOf(
  row: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date },
  now: Date,
): TeamState {
  if (row.revokedAt) return "revoked";
  if (row.acceptedAt) return "active";
  return now.getTime() >= row.expiresAt.getTime() ? "expired" : "pending";
}

/** How long an invitation waits to be accepted. */
export const INVITATION_DAYS = 7;
export const invitationExpiry = (invitedAt: Date) =>
  new Date(invitedAt.getTime() + INVITATION_DAYS * 86_400_000);
