import type { RateLimitPolicy } from "./types";

/** Every limit of spec section 8 lives here; endpoints refer to them by name. */
export function globalPolicy(perMinute: number): RateLimitPolicy {
  return { name: "global", limit: perMinute, windowSeconds: 60, message: "Too many requests" };
}

export const authFailurePolicy: RateLimitPolicy = {
  // Failed sign-ins and bad tokens count against the caller's IP too (spec 8: rate-limited).
  name: "auth-fail",
  limit: 30,
  windowSeconds: 60,
  message: "Too many requests",
};
