import { describe, expect, it } from "vitest";
import { decideAfterFailure, isDelivered, MAX_RETRY_DELAY_MS, retryDelayMs } from "./policy";

const BASE = 30_000;
const DAY = 86_400_000;

describe("retry policy", () => {
  it("doubles from base x 2 and caps at 6 hours", () => {
    const mid = () => 0.5; // no jitter
    expect(retryDelayMs(1, BASE, mid)).toBe(60_000);
    expect(retryDelayMs(2, BASE, mid)).toBe(120_000);
    expect(retryDelayMs(5, BASE, mid)).toBe(960_000);
    expect(retryDelayMs(9, BASE, mid)).toBe(15_360_000);
    expect(retryDelayMs(10, BASE, mid)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(1000, BASE, mid)).toBe(MAX_RETRY_DELAY_MS);
  });

  it("jitters by at most 20% either way", () => {
    expect(retryDelayMs(3, BASE, () => 0)).toBe(192_000);
    expect(retryDelayMs(3, BASE, () => 0.999999)).toBeLessThanOrEqual(288_000);
    expect(retryDelayMs(3, BASE, () => 0.999999)).toBeGreaterThan(287_000);
  });

  it("gives about 20 attempts over 3 days", () => {
    let elapsed = 0;
    let attempts = 0;
    while (elapsed < 3 * DAY) {
      attempts++;
      elapsed += retryDelayMs(attempts, BASE, () => 0.5);
    }
    expect(attempts).toBeGreaterThanOrEqual(18);
    expect(attempts).toBeLessThanOrEqual(22);
  });

  it("retries until the delivery is older than the max age, then fails", () => {
    const queuedAt = new Date("2026-01-01T00:00:00Z");
    const common = { attempts: 4, queuedAt, baseMs: BASE, maxAgeMs: 3 * DAY, random: () => 0.5 };
    const early = decideAfterFailure({ ...common, now: new Date("2026-01-01T01:00:00Z") });
    expect(early).toEqual({
      status: "pending",
      nextAttemptAt: new Date("2026-01-01T01:08:00Z"),
    });
    expect(decideAfterFailure({ ...common, now: new Date(queuedAt.getTime() + 3 * DAY) })).toEqual({
      status: "failed",
    });
  });

  it("counts only 2xx as delivered", () => {
    expect(isDelivered(200)).toBe(true);
    expect(isDelivered(204)).toBe(true);
    expect(isDelivered(299)).toBe(true);
    expect(isDelivered(301)).toBe(false);
    expect(isDelivered(302)).toBe(false);
    expect(isDelivered(404)).toBe(false);
    expect(isDelivered(500)).toBe(false);
    expect(isDelivered(undefined)).toBe(false);
  });
});
