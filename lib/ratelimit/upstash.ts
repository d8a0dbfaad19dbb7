import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import type { RateLimiter, RateLimitPolicy } from "./types";

/**
 * Upstash Redis through @upstash/ratelimit (pinned to 2.0.8: later versions use an
 * Upstash-only script flag, see README). Same fixed-window semantics as the Postgres limiter.
 */
export function createUpstashRateLimiter(opts: { url: string; token: string }): RateLimiter {
  const redis = new Redis({ url: opts.url, token: opts.token });
  const limiters = new Map<string, Ratelimit>();
  const limiterFor = (policy: RateLimitPolicy) => {
    const id = `${policy.name}:${policy.limit}:${policy.windowSeconds}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = new Ratelimit({
        redis,
        limiter: Ratelimit.fixedWindow(policy.limit, `${policy.windowSeconds} s`),
        prefix: `rl:${policy.name}`,
        analytics: false,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  };
  return {
    async hit(policy, subject) {
      const r = await limiterFor(policy).limit(subject);
      return {
        policy,
        allowed: r.success,
        remaining: Math.max(0, r.remaining),
        resetAt: new Date(r.reset),
      };
    },
  };
}
