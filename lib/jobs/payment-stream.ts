import type { Logger } from "@/lib/logger";
import type { HorizonClient } from "@/lib/stellar/horizon";

/**
 * Follows Horizon's payment stream (SSE, `cursor=now`) only as a wake-up signal: every new
 * payment event calls `onActivity`, and the cursor-based watcherTick does the actual reading,
 * so streaming and polling share one exactly-once path. Reconnects with backoff.
 */
export function followPayments(
  horizon: HorizonClient,
  onActivity: () => void,
  logger: Logger,
): { stop: () => void } {
  let stopped = false;
  let controller: AbortController | undefined;
  let backoff = 1000;

  const run = async () => {
    while (!stopped) {
      controller = new AbortController();
      try {
        const res = await fetch(horizon.url("/payments", { cursor: "now" }), {
          headers: { accept: "text/event-stream" },
          signal: controller.signal,
        });
        if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
        backoff = 1000;
        const decoder = new TextDecoder();
        let buffer = "";
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end = buffer.indexOf("\n\n");
          while (end !== -1) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            // `data: "hello"` opens the stream; any other data line is a payment.
            if (/^data: (?!"hello")/m.test(event)) onActivity();
            end = buffer.indexOf("\n\n");
          }
        }
      } catch (err) {
        if (stopped) return;
        logger.debug("payment stream interrupted", {
          network: horizon.network,
          error: String(err),
        });
      }
      if (stopped) return;
      await new Promise((r) => setTimeout(r, backoff));
      backoff = Math.min(backoff * 2, 30_000);
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
