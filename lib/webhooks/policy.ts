/**
 * Retry rules of webhook deliveries, pure (the clock and randomness come in as arguments).
 * Attempt n (1-based count of attempts so far) is followed by a wait of
 * min(base x 2^n, 6 h) with +-20% jitter: with the 30 s base that is 1, 2, 4 ... minutes,
 * reaching the 6-hour cap after the 10th attempt, about 20 attempts in the 3-day window.
 */
export const MAX_RETRY_DELAY_MS = 6 * 3600_000;
export const JITTER = 0.2;

export function retryDelayMs(attempts: number, baseMs: number, random: () => number): number {
  const exponent = Math.min(Math.max(attempts, 1), 40);
  const plain = Math.min(baseMs * 2 ** exponent, MAX_RETRY_DELAY_MS);
  return Math.round(plain * (1 - JITTER + 2 * JITTER * random()));
}

export type FailureDecision = { status: "failed" } | { status: "pending"; nextAttemptAt: Date };

/** After a failed attempt: retry later, or give up once the delivery is older than maxAge. */
export function decideAfterFailure(input: {
  attempts: number;
  queuedAt: Date;
  now: Date;
  baseMs: number;
  maxAgeMs: number;
  random: () => number;
}): FailureDecision {
  const age = input.now.getTime() - input.queuedAt.getTime();
  if (age >= input.maxAgeMs) return { status: "failed" };
  const delay = retryDelayMs(input.attempts, input.baseMs, input.random);
  return { status: "pending", nextAttemptAt: new Date(input.now.getTime() + delay) };
}

/** A 2xx answer is a delivery; anything else (3xx included: redirects are not followed) fails. */
export function isDelivered(statusCode: number | undefined): boolean {
  return statusCode !== undefined && statusCode >= 200 && statusCode < 300;
}
