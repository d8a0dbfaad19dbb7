import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import { UnavailableError } from "@/lib/domain/errors";
// Same words as a database outage: the client cannot tell which store is down, nor need to.
import { DATABASE_UNAVAILABLE } from "@/lib/http/errors";
import type { RateLimiter, RateLimitPolicy } from "./types";

/** Upstash answers in milliseconds; past this the request fails with a 503 rather than hang. */
const REQUEST_TIMEOUT_MS = 2_000;

/**
 * Upstash Redis through @upstash/ratelimit (pinned to 2.0.8: later versions use an
 * Upstash-only script flag, see README). Same fixed-window semantics as the Postgres limiter.
 * When Upstash cannot be reached the request fails closed with a 503, as when PostgreSQL is
 * down: limits that cannot be checked are not waived (two attempts, 2 s each at most).
 */
/** Decrements a counter that still exists (an expired window stays gone). */
const RELEASE = `if tonumber(redis.call("get", KEYS[1]) or "0") > 0 then redis.call("decr", KEYS[1]) end
return 0`;

export function createUpstashRateLimiter(opts: { url: string; token: string }): RateLimiter {
  const redis = new Redis({
    url: opts.url,
    token: opts.token,
    retry: { retries: 1, backoff: () => 100 },
    signal: () => AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
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
        // The library remembers a refusal in memory until the window ends; a limit whose hits
        // can be handed back (`release`) must ask Redis each time instead.
        ...(policy.successesOnly ? { ephemeralCache: false as const } : {}),
        // 0: no "allow after a timeout" (the library fails open by default); the request's own
        // time limit above bounds the wait instead.
        timeout: 0,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  };
  return {
    async release(result, subject) {
      // @upstash/ratelimit 2.0.8's fixed window counts in `<prefix>:<subject>:<window number>`.
      const windowMs = result.policy.windowSeconds * 1000;
      const bucket = Math.floor(result.resetAt.getTime() / windowMs) - 1;
      const key = `rl:${result.policy.name}:${subject}:${bucket}`;
      await redis.eval(RELEASE, [key], []);
    },
    async hit(policy, subject) {
      let r: Awaited<ReturnType<Ratelimit["limit"]>>;
      try {
        r = await limiterFor(policy).limit(subject);
      } catch {
        throw new UnavailableError(DATABASE_UNAVAILABLE);
      }
      return {
        policy,
        allowed: r.success,
        remaining: Math.max(0, r.remaining),
        resetAt: new Date(r.reset),
      };
    },
  };
}
