/** A named limit: `limit` hits per `windowSeconds`, with its 429 message (docs/decisions.md). */
export type RateLimitPolicy = {
  name: string;
  limit: number;
  windowSeconds: number;
  message: string;
  /** Count only requests that succeed: a failed one hands its hit back (creation limits). */
  successesOnly?: boolean;
};

export type RateLimitResult = {
  policy: RateLimitPolicy;
  allowed: boolean;
  remaining: number;
  /** When the current window ends. */
  resetAt: Date;
};

/** Counters shared by every app instance (Postgres by default, Upstash when configured). */
export type RateLimiter = {
  hit(policy: RateLimitPolicy, subject: string, now: Date): Promise<RateLimitResult>;
  /** Hands back one allowed hit (`result` is what `hit` returned), if its window still runs. */
  release(result: RateLimitResult, subject: string): Promise<void>;
};

export function windowStart(now: Date, windowSeconds: number): Date {
  const ms = windowSeconds * 1000;
  return new Date(Math.floor(now.getTime() / ms) * ms);
}
