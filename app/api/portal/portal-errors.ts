import { RateLimitedError, UnauthorizedError } from "@/lib/domain/errors";
import type { LimitSpec } from "@/lib/http/route";
import { PORTAL_SIGN_IN_LIMITED, portalSignInPolicy } from "@/lib/ratelimit/policies";
import { PORTAL_SIGN_IN_REQUIRED } from "@/lib/services/portal/session";

/** Every portal operation reads the `portal_session` cookie (docs/decisions.md, Client portal). */
export const portalSignInRequired = new UnauthorizedError(PORTAL_SIGN_IN_REQUIRED);

export const portalSignInLimit: LimitSpec = {
  policy: portalSignInPolicy,
  per: "ip",
  note: "10 sign-in requests per 15 minutes per IP address",
};
export const portalLinkLimited = new RateLimitedError(PORTAL_SIGN_IN_LIMITED, 900);

export const PORTAL_COOKIE_NOTE =
  "Signed in by the `portal_session` cookie (HttpOnly, SameSite=Lax, Secure over https, 7 days), one freelancer's one client; anything outside it is 404.";
