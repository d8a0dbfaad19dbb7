/**
 * What a restricted API key may do (docs/decisions.md, API keys). An operation a key may call
 * names the scopes that allow it (`scope` in its spec.ts, any one of them suffices); one that
 * names none (keys, sessions) is for a signed-in wallet only.
 */
export const API_KEY_SCOPES = [
  "invoices:read",
  "invoices:write",
  "clients:read",
  "clients:write",
  "links:write",
  "webhooks:write",
  "profile:write",
] as const;

export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Scopes that let a key read (the events endpoint accepts any of them). */
export const READ_SCOPES: readonly ApiKeyScope[] = ["invoices:read", "clients:read"];

/** True when a key holding `held` may call an operation that asks for any of `wanted`. */
export function scopeAllows(held: readonly ApiKeyScope[], wanted: readonly ApiKeyScope[]) {
  return wanted.some((scope) => held.includes(scope));
}

/** 403: an API key on an operation its scopes do not allow, or on another network's data. */
export const INSUFFICIENT_SCOPE = "Insufficient scope";
