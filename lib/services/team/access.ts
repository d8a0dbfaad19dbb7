import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { teamMembers } from "@/db/schema";
import { ForbiddenError } from "@/lib/domain/errors";
import { BOOKS_CLOSED, type TeamRole } from "@/lib/domain/team-access";
import type { ServiceContext } from "../context";

/**
 * The live membership of a books token, read on every request (one indexed query, no cache:
 * a revocation or a role change takes effect on the next request on every instance). An
 * accepted, unrevoked row; anything else is 403 BOOKS_CLOSED (docs/decisions.md, Team access).
 */
export async function liveRole(
  ctx: ServiceContext,
  books: { owner: string; member: string },
): Promise<TeamRole> {
  const [row] = await ctx.db
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(
      and(
        eq(teamMembers.memberWallet, books.member),
        eq(teamMembers.ownerWallet, books.owner),
        isNull(teamMembers.revokedAt),
        isNotNull(teamMembers.acceptedAt),
      ),
    )
    .limit(1);
  if (!row) throw new ForbiddenError(BOOKS_CLOSED);
  return row.role;
}
