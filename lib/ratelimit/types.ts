/** A named limit: `limit` hits per `windowSeconds`, with its 429 message (docs/decisions.md). */
export type RateLimitPolicy = {
  name: string;
  limit: number;
  windowSeconds: number;
  message: string;
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
};

export function windowStart(now: Date, windowSeconds: number): Date {
  const ms = windowSeconds * 1000;
  return new Date(Math.floor(now.getTime() / ms) * ms);
}
