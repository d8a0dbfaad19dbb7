/**
 * The refusals of a bad credential, in a module of their own: `lib/http/route.ts` names them
 * for every operation's OpenAPI errors, and importing them from `token.ts` / `nonce.ts` would
 * load the JWT library and the Stellar base library with every route (docs/decisions.md,
 * Cold start).
 */
export const INVALID_TOKEN = "Invalid or expired token";
export const INVALID_SIGNATURE =
  "Invalid or expired signature. Request a new nonce from POST /api/auth/nonce";
