import type { Logger } from "@/lib/logger";
import type { RpcClient } from "./client";

/** Ledger interval assumed until two new ledgers have been seen (the network's ~5 s). */
const DEFAULT_INTERVAL_MS = 5_000;
/** Poll this long before the expected close, then every STEP_MS until it comes. */
const LEAD_MS = 150;
const STEP_MS = 150;
/** A ledger this late (network stalled): poll once a second instead. */
const LATE_MS = 3_000;
const SLOW_STEP_MS = 1_000;

/**
 * Stellar RPC has no stream: the wake-up polls getLatestLedger on the ledgers' own beat. After
 * a new ledger is seen, the next poll is one ledger interval later (the median of the last
 * intervals seen) less LEAD_MS, then every STEP_MS until the next ledger shows, every second
 * once it is LATE_MS late. Each new ledger calls `onActivity` once (the cursor-based watcher
 * does the reading), as does the first answer and every recovery after errors. About 1.5
 * requests a ledger (about 1,100 an hour at 5 s ledgers), and a ledger is seen within
 * STEP_MS of being served (bench/results.md, Mainnet-scale watcher).
 */
export function followLedgers(
  rpc: Pick<RpcClient, "getLatestLedger" | "network">,
  onActivity: () => void,
  logger: Logger,
): { stop: () => void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let last = 0;
  let lastSeenAt = 0;
  let backoff = 1_000;
  let failing = false;
  const intervals: number[] = [];

  const expected = () => {
    if (intervals.length < 2) return DEFAULT_INTERVAL_MS;
    const sorted = [...intervals].sort((a, b) => a - b);
    return Math.min(60_000, Math.max(500, sorted[Math.floor(sorted.length / 2)]));
  };

  const poll = async () => {
    if (stopped) return;
    let delay: number;
    try {
      const { sequence } = await rpc.getLatestLedger();
      const now = Date.now();
      if (sequence > last) {
        if (last > 0 && lastSeenAt > 0) {
          intervals.push((now - lastSeenAt) / (sequence - last));
          if (intervals.length > 9) intervals.shift();
        }
        last = sequence;
        lastSeenAt = now;
        onActivity();
      } else if (failing) {
        onActivity();
      }
      failing = false;
      backoff = 1_000;
      const next = lastSeenAt + expected() - LEAD_MS;
      const late = now - (lastSeenAt + expected());
      delay = now < next ? next - now : late > LATE_MS ? SLOW_STEP_MS : STEP_MS;
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
