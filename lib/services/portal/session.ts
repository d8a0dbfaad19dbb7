import { type AnyColumn, and, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { portalLinks, portalSessions } from "@/db/schema";
import { UnauthorizedError } from "@/lib/domain/errors";
import { newId } from "@/lib/ids";
import type { ServiceContext } from "../context";
import {
  newSessionSecret,
  portalCookie,
  portalCookieOf,
  SESSION_TTL_SECONDS,
  secureCookies,
  tokenHash,
} from "./tokens";

export const PORTAL_SIGN_IN_REQUIRED = "Sign in to the client portal first";

/** Who a portal request is for: one freelancer's one client (docs/decisions.md, Client portal). */
export type PortalSession = { ownerWallet: string; clientEmail: string; sessionId: string };

/** `last_seen_at` is written at most this often per session. */
const SEEN_EVERY_MS = 60_000;

/**
 * The portal session of a request's cookie, or 401: unknown, expired and revoked sessions alike.
 * Read on every portal request, so a revocation takes effect on the next one.
 */
export async function portalSessionOf(
  ctx: ServiceContext,
  request: Request,
): Promise<PortalSession> {
  const secret = portalCookieOf(request.headers.get("cookie"));
  if (!secret) throw new UnauthorizedError(PORTAL_SIGN_IN_REQUIRED);
  const now = ctx.now();
  const [row] = await ctx.db
    .select()
    .from(portalSessions)
    .where(
      and(
        eq(portalSessions.tokenHash, tokenHash(secret)),
        isNull(portalSessions.revokedAt),
        gt(portalSessions.expiresAt, now),
      ),
    )
    .limit(1);
  if (!row) throw new UnauthorizedError(PORTAL_SIGN_IN_REQUIRED);
  if (!row.lastSeenAt || now.getTime() - row.lastSeenAt.getTime() >= SEEN_EVERY_MS) {
    await ctx.db
      .update(portalSessions)
      .set({ lastSeenAt: now })
      .where(eq(portalSessions.id, row.id));
  }
  return { ownerWallet: row.ownerWallet, clientEmail: row.clientEmail, sessionId: row.id };
}

/** A new session row and the Set-Cookie that carries its secret. */
export async function createPortalSession(
  ctx: ServiceContext,
  input: { ownerWallet: string; clientEmail: string; via: "email" | "wallet" },
): Promise<{ sessionId: string; setCookie: string }> {
  const secret = newSessionSecret();
  const now = ctx.now();
  const id = newId();
  await ctx.db.insert(portalSessions).values({
    id,
    tokenHash: tokenHash(secret),
    ownerWallet: input.ownerWallet,
    clientEmail: input.clientEmail,
    via: input.via,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000),
    lastSeenAt: now,
  });
  return {
    sessionId: id,
    setCookie: portalCookie(secret, { secure: secureCookies(ctx.config.appUrl) }),
  };
}

/** POST /api/portal/sign-out: revokes the cookie's session (if any) and clears the cookie. */
export async function signOutPortal(ctx: ServiceContext, request: Request): Promise<string> {
  const secret = portalCookieOf(request.headers.get("cookie"));
  if (secret) {
    await ctx.db
      .update(portalSessions)
      .set({ revokedAt: ctx.now() })
      .where(
        and(eq(portalSessions.tokenHash, tokenHash(secret)), isNull(portalSessions.revokedAt)),
      );
  }
  return portalCookie(null, { secure: secureCookies(ctx.config.appUrl) });
}

/** A freelancer's client's active portal sessions, newest first. */
export function activePortalSessions(
  ctx: ServiceContext,
  ownerWallet: string,
  clientEmail: string,
) {
  return ctx.db
    .select({
      id: portalSessions.id,
      via: portalSessions.via,
      createdAt: portalSessions.createdAt,
      lastSeenAt: portalSessions.lastSeenAt,
      expiresAt: portalSessions.expiresAt,
    })
    .from(portalSessions)
    .where(
      and(
        eq(portalSessions.ownerWallet, ownerWallet),
        eq(portalSessions.clientEmail, clientEmail),
        isNull(portalSessions.revokedAt),
        gt(portalSessions.expiresAt, ctx.now()),
      ),
    )
    .orderBy(desc(portalSessions.createdAt));
}

/** Revokes every live session of a freelancer's client; returns how many. */
export async function revokePortalSessions(
  ctx: ServiceContext,
  ownerWallet: string,
  clientEmail: string,
): Promise<number> {
  const rows = await ctx.db
    .update(portalSessions)
    .set({ revokedAt: ctx.now() })
    .where(
      and(
        eq(portalSessions.ownerWallet, ownerWallet),
        eq(portalSessions.clientEmail, clientEmail),
        isNull(portalSessions.revokedAt),
        gt(portalSessions.expiresAt, ctx.now()),
      ),
    )
    .returning({ id: portalSessions.id });
  return rows.length;
}

/**
 * Housekeeping: sessions expired or revoked more than a day ago, and links past their 30
 * minutes by more than two hours (the per-address email budget counts the last hour's).
 */
export async function deleteOldPortalRows(ctx: ServiceContext): Promise<number> {
  const now = ctx.now().getTime();
  const dayAgo = new Date(now - 86_400_000);
  const sessions = await ctx.db
    .delete(portalSessions)
    .where(or(lt(portalSessions.expiresAt, dayAgo), lt(portalSessions.revokedAt, dayAgo)))
    .returning({ id: portalSessions.id });
  const links = await ctx.db
    .delete(portalLinks)
    .where(lt(portalLinks.expiresAt, new Date(now - 2 * 3_600_000)))
    .returning({ id: portalLinks.id });
  return sessions.length + links.length;
}

/** Lower-cased and trimmed, as the portal keys clients (and statements match them). */
export const portalEmail = (email: string) => email.trim().toLowerCase();

/** The SQL of "this column is that email", case and spaces aside. */
export const sameEmail = (column: AnyColumn, email: string) =>
  sql`lower(trim(${column})) = ${portalEmail(email)}`;
