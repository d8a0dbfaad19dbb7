import type { Logger } from "@/lib/logger";
import type { RpcClient } from "./client";

/** Ledger interval assumed until one has been measured (the network's ~5 s). */
const DEFAULT_INTERVAL_MS = 5_000;
/** The shortest interval assumed (Stellar's ledgers take about 5 s). */
const MIN_INTERVAL_MS = 500;
/** Poll this long before the expected close, then every STEP_MS until it comes. */
const LEAD_MS = 50;
const STEP_MS = 250;
/** A ledger this late (network stalled): poll once a second instead. */
const LATE_MS = 3_000;
const SLOW_STEP_MS = 1_000;

/**
 * Stellar RPC has no stream: the wake-up polls getLatestLedger on the ledgers' own beat. After
 * a new ledger is seen, the next poll is one ledger interval later (the shortest of the last
 * nine intervals between ledgers; every STEP_MS until one is measured) less LEAD_MS, then every
 * STEP_MS until the next ledger shows, every second once it is LATE_MS late. Each new ledger
 * calls `onActivity` once (the cursor-based watcher does the reading), as does the first
 * answer and every recovery after errors. About two requests a ledger (about 1,400 an hour at
 * 5 s ledgers), and a ledger is seen within STEP_MS of being served (bench/results.md,
 * Mainnet-scale watcher).
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
  /** A poll since the last new ledger answered the same ledger. */
  let missed = false;
  const intervals: number[] = [];

  // The shortest of the last intervals between consecutive ledgers: a ledger expected too
  // late is seen late (an estimate too long costs detection time), one expected too early
  // only costs a poll or two.
  const expected = () =>
    intervals.length === 0
      ? DEFAULT_INTERVAL_MS
      : Math.min(60_000, Math.max(MIN_INTERVAL_MS, Math.min(...intervals)));

  const poll = async () => {
    if (stopped) return;
    let delay: number;
    try {
      const { sequence } = await rpc.getLatestLedger();
      const now = Date.now();
      if (sequence > last) {
        if (last > 0 && !failing) {
          // Seen on the first poll after the wait (or several ledgers at once): they may have
          // come earlier than measured, so the estimate shrinks until a poll misses the next
          // one (then the measure is within STEP_MS).
          const measured = (now - lastSeenAt) / (sequence - last);
          intervals.push(missed && sequence === last + 1 ? measured : measured * 0.8);
          if (intervals.length > 9) intervals.shift();
        }
        last = sequence;
        lastSeenAt = now;
        missed = false;
        onActivity();
      } else if (failing) {
        onActivity();
      } else {
        missed = true;
      }
      failing = false;
      backoff = 1_000;
      // Until one interval is known, poll every STEP_MS to measure it (once, at start).
      const next = intervals.length === 0 ? 0 : lastSeenAt + expected() - LEAD_MS;
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
