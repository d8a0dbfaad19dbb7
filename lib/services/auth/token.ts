import { randomUUID } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { UnauthorizedError } from "@/lib/domain/errors";
import { isValidWalletAddress } from "@/lib/stellar/keys";
import type { ServiceContext, SessionClaims } from "../context";
import { INVALID_TOKEN } from "./messages";
import { isRevoked } from "./sessions";

export const SESSION_TTL_SECONDS = 3600;

const key = (secret: string) => new TextEncoder().encode(secret);

/**
 * An HS256 JWT with a random `jti` (what sign-out revokes) and an `iat` to the millisecond
 * (so a sign-in right after "sign out everywhere" is not caught by its cutoff); it expires
 * on the second, one hour after issue (docs/decisions.md "Authentication").
 */
export async function issueSessionToken(opts: {
  secret: string;
  wallet: string;
  now: Date;
  /** A team member's token for another wallet's books (docs/decisions.md, Team access). */
  books?: string;
}) {
  const exp = Math.floor(opts.now.getTime() / 1000) + SESSION_TTL_SECONDS;
  const claims = opts.books
    ? { walletAddress: opts.wallet, books: opts.books }
    : { walletAddress: opts.wallet };
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(opts.wallet)
    .setJti(randomUUID())
    .setIssuedAt(opts.now.getTime() / 1000)
    .setExpirationTime(exp)
    .sign(key(opts.secret));
  return { token, expiresAt: new Date(exp * 1000) };
}

/** The claims of a well-signed, unexpired token; anything else is 401 `Invalid or expired token`. */
export async function readSessionToken(opts: {
  secret: string;
  token: string;
  now: Date;
}): Promise<SessionClaims> {
  try {
    const { payload } = await jwtVerify(opts.token, key(opts.secret), {
      algorithms: ["HS256"],
      currentDate: opts.now,
      requiredClaims: ["exp", "iat", "jti"],
    });
    const { walletAddress: wallet, jti, iat, exp, books } = payload;
    if (!isValidWalletAddress(wallet) || typeof jti !== "string" || !jti) {
      throw new UnauthorizedError(INVALID_TOKEN);
    }
    if (books !== undefined && (!isValidWalletAddress(books) || books === wallet)) {
      throw new UnauthorizedError(INVALID_TOKEN);
    }
    return {
      jti,
      wallet,
      ...(books ? { books } : {}),
      issuedAt: new Date(Math.round((iat as number) * 1000)),
      expiresAt: new Date((exp as number) * 1000),
    };
  } catch (err) {
    if (err instanceof UnauthorizedError || err instanceof joseErrors.JOSEError) {
      throw new UnauthorizedError(INVALID_TOKEN);
    }
    if (err instanceof TypeError) throw new UnauthorizedError(INVALID_TOKEN);
    throw err;
  }
}

/**
 * Tokens this instance has verified, by their text, with their claims: a token's signature
 * and claims never change, so it is checked (HMAC) once and then only against the clock, on
 * the second as jose does, until it expires. Sign-out is untouched: isRevoked() still runs on
 * every request. Bounded: past VERIFIED_MAX, the expired ones go (then all, if need be).
 */
const VERIFIED_MAX = 10_000;
const verified = new Map<string, SessionClaims>();
let verifiedSecret = "";

async function readSessionTokenCached(opts: {
  secret: string;
  token: string;
  now: Date;
}): Promise<SessionClaims> {
  if (opts.secret !== verifiedSecret) {
    verified.clear();
    verifiedSecret = opts.secret;
  }
  const known = verified.get(opts.token);
  if (known) {
    // jose's rule: expired once the current second reaches `exp`.
    if (Math.floor(opts.now.getTime() / 1000) < known.expiresAt.getTime() / 1000) return known;
    verified.delete(opts.token);
    throw new UnauthorizedError(INVALID_TOKEN);
  }
  const claims = await readSessionToken(opts);
  if (verified.size >= VERIFIED_MAX) {
    const now = opts.now.getTime();
    for (const [k, v] of verified) if (v.expiresAt.getTime() <= now) verified.delete(k);
    if (verified.size >= VERIFIED_MAX) verified.clear();
  }
  verified.set(opts.token, claims);
  return claims;
}

/**
 * The wallet of a valid session token that has not been signed out (lib/services/auth/
 * sessions.ts); anything else is 401 `Invalid or expired token`. The verified claims are
 * kept on `ctx.session` for the request (sign-out reads the `jti` there).
 */
export async function verifySessionToken(ctx: ServiceContext, token: string): Promise<string> {
  const claims = await readSessionTokenCached({
    secret: ctx.config.jwtSecret,
    token,
    now: ctx.now(),
  });
  if (await isRevoked(ctx, claims)) throw new UnauthorizedError(INVALID_TOKEN);
  ctx.session = claims;
  return claims.wallet;
}
