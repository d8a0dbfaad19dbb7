import type { Logger } from "@/lib/logger";
import type { HorizonClient } from "./client";

/**
 * Follows Horizon's ledger stream (SSE on `/ledgers`) only as a wake-up signal: every new
 * ledger that applied operations calls `onActivity` once, and the cursor-based watcherTick
 * does the actual reading, so streaming and polling share one exactly-once path.
 *
 * Ledgers, not payments: one event per ledger whatever it carries. Horizon ends a stream
 * after `limit` records (`event: close`), so a payment stream at the public network's
 * volume (hundreds of payments a ledger) reconnects several times a ledger and wakes the
 * watcher hundreds of times; the ledger stream reconnects once every 200 ledgers (about
 * 17 minutes) (docs/decisions.md, Watcher; bench/mainnet.ts). A ledger whose
 * `operation_count` is 0 holds no payment and wakes nobody.
 *
 * The stream is resumed from the last event id it delivered, so nothing that happened in
 * between is missed, and at once, as the server asks. Network errors reconnect with backoff,
 * and every reconnection wakes the watcher once in case something was missed meanwhile.
 */
export function followLedgers(
  horizon: HorizonClient,
  onActivity: () => void,
  logger: Logger,
): { stop: () => void } {
  let stopped = false;
  let controller: AbortController | undefined;
  let backoff = 1000;
  let lastId: string | undefined;

  const run = async () => {
    while (!stopped) {
      controller = new AbortController();
      let retryMs = backoff;
      try {
        const res = await fetch(horizon.url("/ledgers", { cursor: lastId ?? "now", limit: 200 }), {
          headers: { accept: "text/event-stream" },
          signal: controller.signal,
        });
        if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
        backoff = 1000;
        if (lastId) onActivity();
        const decoder = new TextDecoder();
        let buffer = "";
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end = buffer.indexOf("\n\n");
          while (end !== -1) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const id = /^id: (\S+)$/m.exec(event)?.[1];
            const retry = /^retry: (\d+)$/m.exec(event)?.[1];
            if (retry) retryMs = Math.min(Number(retry), 30_000);
            // `data: "hello"` opens the stream, `event: close` ends it; anything else with an
            // id is a ledger.
            if (id) {
              lastId = id;
              if (appliedOperations(event)) onActivity();
            }
            end = buffer.indexOf("\n\n");
          }
        }
      } catch (err) {
        if (stopped) return;
        logger.debug("ledger stream interrupted", {
          network: horizon.network,
          error: String(err),
        });
        retryMs = backoff;
        backoff = Math.min(backoff * 2, 30_000);
      }
      if (stopped) return;
      await new Promise((r) => setTimeout(r, retryMs));
    }
  };
  void run();
  return {
    stop: () => {
      stopped = true;
      controller?.abort();
    },
  };
}

/** False only for a ledger record that says it applied no operation (unreadable: true). */
function appliedOperations(event: string): boolean {
  const data = event
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trimStart())
    .join("\n");
  try {
    const ledger = JSON.parse(data) as { operation_count?: unknown };
    return ledger.operation_count !== 0;
  } catch {
    return true;
  }
}
