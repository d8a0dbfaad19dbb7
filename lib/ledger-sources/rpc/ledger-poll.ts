import type { Logger } from "@/lib/logger";
import type { RpcClient } from "./client";

/** Ledger interval assumed until two consecutive ledgers have been seen (the network's ~5 s). */
const DEFAULT_INTERVAL_MS = 5_000;
/** Poll this long before the expected close, then every STEP_MS until it comes. */
const LEAD_MS = 50;
const STEP_MS = 250;
const START_STEP_MS = 500;
/** A ledger seen on the first poll after a wait closed at most this long before it (assumed). */
const SLACK_MS = 1_000;
/** A ledger this late (network stalled): poll once a second instead. */
const LATE_MS = 3_000;
const SLOW_STEP_MS = 1_000;
/** Ledgers the mean interval is taken over. */
const WINDOW = 12;

/**
 * Stellar RPC has no stream: the wake-up polls getLatestLedger on the ledgers' own beat.
 *
 * - The interval is the mean over the last WINDOW ledgers, from their close times
 *   (`closeTime`, seconds) or, without them, from when they were seen, leaving out pauses
 *   (an idle start, a stall) more than 30 % off the median.
 * - The phase: a ledger seen after a poll that did not see it closed between the two polls,
 *   so the next one is expected one interval after that miss; the next poll is LEAD_MS
 *   before, then every STEP_MS until it shows (every second once LATE_MS late). A ledger seen
 *   on the first poll after a wait is assumed to have closed up to SLACK_MS earlier, so the
 *   next poll comes early and locks the phase again.
 *
 * Locked, that is about two requests a ledger (about 1,500 an hour at 5 s ledgers), and a
 * ledger is seen within STEP_MS of being served (bench/results.md, Mainnet-scale watcher). At
 * start it polls every START_STEP_MS until a new ledger shows.
 * Each new ledger calls `onActivity` once (the cursor-based watcher does the reading), as
 * does the first answer and every recovery after errors.
 */
export function followLedgers(
  rpc: Pick<RpcClient, "getLatestLedger" | "network">,
  onActivity: () => void,
  logger: Logger,
): { stop: () => void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let last = 0;
  /** The earliest the last ledger can have closed (ms). */
  let closedAfter = 0;
  /** The last poll that answered the same ledger as before, since it was seen (0: none). */
  let lastMissAt = 0;
  let backoff = 1_000;
  let failing = false;
  const seen: { sequence: number; at: number; closeTime?: number }[] = [];

  // The intervals between consecutive ledgers (their close times, else when they were seen):
  // the mean of those within 30 % of the lower median, so a pause (an idle start, a stall)
  // does not stretch the beat (a 9 s pause among 5 s ledgers made every ledger 2-3 s late).
  const interval = () => {
    const pairs: number[] = [];
    for (let i = 1; i < seen.length; i++) {
      const a = seen[i - 1];
      const b = seen[i];
      if (b.sequence !== a.sequence + 1) continue;
      pairs.push(
        a.closeTime !== undefined && b.closeTime !== undefined
          ? (b.closeTime - a.closeTime) * 1000
          : b.at - a.at,
      );
    }
    if (pairs.length === 0) return DEFAULT_INTERVAL_MS;
    // One pair may be the pause before the first ledger: no longer than the default.
    if (pairs.length === 1) return Math.min(pairs[0], DEFAULT_INTERVAL_MS);
    const sorted = [...pairs].sort((x, y) => x - y);
    const median = sorted[Math.floor((sorted.length - 1) / 2)];
    const inliers = pairs.filter((p) => p >= median * 0.7 && p <= median * 1.3);
    const mean = inliers.reduce((sum, p) => sum + p, 0) / inliers.length;
    return Math.min(60_000, Math.max(500, mean));
  };

  const poll = async () => {
    if (stopped) return;
    let delay: number;
    try {
      const latest = await rpc.getLatestLedger();
      const now = Date.now();
      if (latest.sequence > last) {
        const closeTime = Number(latest.closeTime);
        seen.push({
          sequence: latest.sequence,
          at: now,
          closeTime: Number.isFinite(closeTime) && closeTime > 0 ? closeTime : undefined,
        });
        if (seen.length > WINDOW) seen.shift();
        closedAfter =
          lastMissAt > 0 && latest.sequence === last + 1 && !failing
            ? lastMissAt
            : Math.max(closedAfter, now - SLACK_MS);
        last = latest.sequence;
        lastMissAt = 0;
        onActivity();
      } else {
        if (failing) onActivity();
        lastMissAt = now;
      }
      failing = false;
      backoff = 1_000;
      const expectedAt = closedAfter + interval();
      // Until a new ledger has been seen, every START_STEP_MS (once, at start: the phase).
      if (seen.length < 2) delay = START_STEP_MS;
      else if (now < expectedAt - LEAD_MS) delay = expectedAt - LEAD_MS - now;
      else delay = now - expectedAt > LATE_MS ? SLOW_STEP_MS : STEP_MS;
    } catch (err) {
      if (!failing) {
        logger.debug("ledger poll failed", { network: rpc.network, error: String(err) });
      }
      failing = true;
      delay = backoff;
      backoff = Math.min(backoff * 2, 30_000);
    }
    if (!stopped) timer = setTimeout(poll, delay);
  };
  void poll();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
