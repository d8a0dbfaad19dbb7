import { and, desc, eq, isNull } from "drizzle-orm";
import { profiles, teamMembers } from "@/db/schema";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/domain/errors";
import {
  invitationExpiry,
  type TeamRole,
  type TeamState,
  teamStateOf,
} from "@/lib/domain/team-access";
import { isId, newId } from "@/lib/ids";
import type { InviteMemberInput } from "@/lib/schemas/team";
import { isValidWalletAddress } from "@/lib/stellar/keys";
import { issueSessionToken } from "../auth/token";
import type { AuthedContext } from "../context";
import { withTransaction } from "../db";

/** Team access (docs/decisions.md, Team access): the owner's side and the invited wallet's. */

export type TeamMemberRow = typeof teamMembers.$inferSelect;
export type TeamMemberView = TeamMemberRow & { state: TeamState };

export const TEAM_MEMBER_NOT_FOUND = "Team member not found";
export const NOT_YOURSELF = "You cannot invite your own wallet";
export const ALREADY_INVITED = "This wallet is already invited to your books";
export const BOOKS_NOT_FOUND = "No invitation to these books";
export const INVITATION_EXPIRED =
  "This invitation has expired (invitations are valid 7 days): ask the owner to invite you again";

const withState = (row: TeamMemberRow, now: Date): TeamMemberView => ({
  ...row,
  state: teamStateOf(row, now),
});

/** The owner's invitations and members, newest first, revoked ones included. */
export async function listTeam(ctx: AuthedContext): Promise<TeamMemberView[]> {
  const rows = await ctx.db
    .select()
    .from(teamMembers)
    .where(eq(teamMembers.ownerWallet, ctx.wallet))
    .orderBy(desc(teamMembers.invitedAt), desc(teamMembers.id));
  const now = ctx.now();
  return rows.map((r) => withState(r, now));
}

/**
 * Invites `wallet` as `role`. One live row per owner and wallet: a pending or active one is a
 * 409; an expired one is closed (revoked) and the new invitation replaces it.
 */
export async function inviteMember(
  ctx: AuthedContext,
  input: InviteMemberInput,
): Promise<TeamMemberView> {
  if (input.wallet === ctx.wallet) {
    throw new ValidationError(NOT_YOURSELF, { wallet: "must be another wallet than your own" });
  }
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const [live] = await tx
      .select()
      .from(teamMembers)
      .where(
        and(
          eq(teamMembers.ownerWallet, ctx.wallet),
          eq(teamMembers.memberWallet, input.wallet),
          isNull(teamMembers.revokedAt),
        ),
      )
      .for("update");
    if (live) {
      if (teamStateOf(live, now) !== "expired") {
        throw new ConflictError(ALREADY_INVITED, {
          wallet: "already invited: change its role or revoke it",
        });
      }
      await tx.update(teamMembers).set({ revokedAt: now }).where(eq(teamMembers.id, live.id));
    }
    const [row] = await tx
      .insert(teamMembers)
      .values({
        id: newId(),
        ownerWallet: ctx.wallet,
        memberWallet: input.wallet,
        role: input.role,
        invitedAt: now,
        expiresAt: invitationExpiry(now),
        invitedBy: ctx.wallet,
      })
      .onConflictDoNothing()
      .returning();
    // A concurrent invitation of the same wallet won the unique index.
    if (!row) throw new ConflictError(ALREADY_INVITED, { wallet: "already invited" });
    return withState(row, now);
  });
}

/** One of the owner's rows: another owner's is 404 (it is not this owner's to know about). */
async function ownRow(ctx: AuthedContext, id: string): Promise<TeamMemberRow> {
  if (!isId(id)) throw new NotFoundError(TEAM_MEMBER_NOT_FOUND);
  const [row] = await ctx.db
    .select()
    .from(teamMembers)
    .where(and(eq(teamMembers.id, id), eq(teamMembers.ownerWallet, ctx.wallet)));
  if (!row) throw new NotFoundError(TEAM_MEMBER_NOT_FOUND);
  return row;
}

/** Changes a live row's role; it applies from the member's next request. */
export async function changeRole(
  ctx: AuthedContext,
  id: string,
  role: TeamRole,
): Promise<TeamMemberView> {
  const row = await ownRow(ctx, id);
  if (row.revokedAt) {
    throw new ValidationError("This access was revoked: invite the wallet again", {
      id: "revoked",
    });
  }
  const [updated] = await ctx.db
    .update(teamMembers)
    .set({ role })
    .where(eq(teamMembers.id, row.id))
    .returning();
  return withState(updated, ctx.now());
}

/** Revokes a row (again: the same answer); the member's next request is refused. */
export async function revokeMember(ctx: AuthedContext, id: string): Promise<TeamMemberView> {
  const row = await ownRow(ctx, id);
  if (row.revokedAt) return withState(row, ctx.now());
  const [updated] = await ctx.db
    .update(teamMembers)
    .set({ revokedAt: ctx.now() })
    .where(eq(teamMembers.id, row.id))
    .returning();
  return withState(updated, ctx.now());
}

export type BooksView = {
  owner: string;
  businessName: string | null;
  role: TeamRole;
  state: TeamState;
  expiresAt: Date;
};

/** The books the signed-in wallet is invited to (pending, active or expired; never revoked). */
export async function listBooks(ctx: AuthedContext): Promise<BooksView[]> {
  const rows = await ctx.db
    .select({
      row: teamMembers,
      company: profiles.company,
      displayName: profiles.displayName,
    })
    .from(teamMembers)
    .leftJoin(profiles, eq(profiles.wallet, teamMembers.ownerWallet))
    .where(and(eq(teamMembers.memberWallet, ctx.wallet), isNull(teamMembers.revokedAt)))
    .orderBy(desc(teamMembers.invitedAt));
  const now = ctx.now();
  return rows.map(({ row, company, displayName }) => ({
    owner: row.ownerWallet,
    businessName: company || displayName || null,
    role: row.role,
    state: teamStateOf(row, now),
    expiresAt: row.expiresAt,
  }));
}

/**
 * Opens `owner`'s books for the signed-in wallet: the first time accepts the invitation, then
 * issues a session token naming the books (lib/services/auth/token.ts, same lifetime as a
 * sign-in). Expired: 403; revoked or never invited: 404.
 */
export async function openBooks(ctx: AuthedContext, owner: string) {
  if (!isValidWalletAddress(owner) || owner === ctx.wallet) {
    throw new NotFoundError(BOOKS_NOT_FOUND);
  }
  const now = ctx.now();
  const row = await withTransaction(ctx.db, async (tx) => {
    const [live] = await tx
      .select()
      .from(teamMembers)
      .where(
        and(
          eq(teamMembers.ownerWallet, owner),
          eq(teamMembers.memberWallet, ctx.wallet),
          isNull(teamMembers.revokedAt),
        ),
      )
      .for("update");
    if (!live) throw new NotFoundError(BOOKS_NOT_FOUND);
    const state = teamStateOf(live, now);
    if (state === "expired") throw new ForbiddenError(INVITATION_EXPIRED);
    if (state === "active") return live;
    const [accepted] = await tx
      .update(teamMembers)
      .set({ acceptedAt: now })
      .where(eq(teamMembers.id, live.id))
      .returning();
    return accepted;
  });
  const { token, expiresAt } = await issueSessionToken({
    secret: ctx.config.jwtSecret,
    wallet: ctx.wallet,
    books: owner,
    now,
  });
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    walletAddress: ctx.wallet,
    books: owner,
    role: row.role,
  };
}
