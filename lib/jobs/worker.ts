import type { Database } from "@/db/client";
import type { Config } from "@/lib/config";
import { ledgerSourceFor } from "@/lib/ledger-sources";
import type { Logger } from "@/lib/logger";
import type { RateLimiter } from "@/lib/ratelimit/types";
import type { NetworkName } from "@/lib/schemas/common";
import type { ServiceContext } from "@/lib/services/context";
import { createRecurringInvoices } from "./create-recurring-invoices";
import { deliverEmails, EMAIL_INTERVAL_MS } from "./deliver-emails";
import { deliverWebhooks } from "./deliver-webhooks";
import { expireDueInvoices } from "./expire-due-invoices";
import { housekeeping } from "./housekeeping";
import { sendReminders } from "./send-reminders";
import { watcherTick } from "./watcher";

export type Worker = { stop: () => Promise<void> };

/**
 * The background loops: the ledger watcher per network (a pass starting every
 * WATCHER_INTERVAL_MS, and at once when the ledger stream shows a new ledger with
 * operations), expiry and housekeeping every EXPIRY_INTERVAL_MS, recurring invoices as often
 * (lib/jobs/create-recurring-invoices.ts), webhook delivery every WEBHOOK_INTERVAL_MS (at once
 * again while work is left), email delivery every 5 seconds (lib/jobs/deliver-emails.ts).
 * Every job is safe to run from several processes at once. Errors back off exponentially (up
 * to a minute) and the loop catches up from its cursor afterwards.
 */
export function startWorker(deps: {
  db: Database;
  config: Config;
  logger: Logger;
  /** The shared rate-limit counters: recurring invoices count against the creation limit. */
  rateLimiter?: RateLimiter;
}): Worker {
  const { config, logger } = deps;
  const ctx = (): ServiceContext => ({
    db: deps.db,
    config,
    now: () => new Date(),
    logger,
    requestId: "worker",
  });
  let stopped = false;
  const running = new Set<Promise<void>>();
  const stops: (() => void)[] = [];

  function loop(name: string, intervalMs: number, job: () => Promise<boolean | undefined>) {
    let timer: NodeJS.Timeout | undefined;
    let wake: (() => void) | undefined;
    let failures = 0;
    let poked = false;
    const body = (async () => {
      while (!stopped) {
        let again = false;
        poked = false;
        const started = Date.now();
        try {
          again = (await job()) === true;
          failures = 0;
        } catch (err) {
          failures++;
          logger.warn(`${name} failed`, { error: String(err), failures });
        }
        if (stopped) break;
        const delay =
          again || (poked && !failures)
            ? 0
            : failures
              ? Math.min(intervalMs * 2 ** failures, 60_000)
              : // Every intervalMs from the start of the last pass: a slow pass (a slow
                // Horizon) does not push the next one back, so a watcher polling as often as
                // ledgers close keeps up (bench/mainnet.ts).
                Math.max(0, intervalMs - (Date.now() - started));
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, delay);
        });
      }
    })();
    running.add(body);
    stops.push(() => {
      clearTimeout(timer);
      wake?.();
    });
    // Activity elsewhere: run now, or right after the pass in progress (not while backing off).
    return () => {
      poked = true;
      if (failures === 0) {
        clearTimeout(timer);
        wake?.();
      }
    };
  }

  for (const network of ["testnet", "mainnet"] as NetworkName[]) {
    const poke = loop(`watcher ${network}`, config.worker.watcherIntervalMs, async () => {
      const r = await watcherTick(ctx(), network);
      return r.more;
    });
    if (config.worker.stream) {
      const stream = ledgerSourceFor(config, network).followLedgers(poke, logger);
      stops.push(stream.stop);
    }
  }
  loop("expiry", config.worker.expiryIntervalMs, async () => {
    await expireDueInvoices(ctx());
    await housekeeping(ctx());
    await sendReminders(ctx());
    return false;
  });

  // Recurring invoices every EXPIRY_INTERVAL_MS, at once again while periods are left.
  loop("recurring", config.worker.expiryIntervalMs, async () => {
    const r = await createRecurringInvoices(ctx(), { rateLimiter: deps.rateLimiter });
    return r.more;
  });

  loop("webhooks", config.webhooks.intervalMs, async () => {
    const r = await deliverWebhooks(ctx());
    return r.more;
  });

  loop("emails", EMAIL_INTERVAL_MS, async () => {
    const r = await deliverEmails(ctx());
    return r.more;
  });

  logger.info("worker started", { stream: config.worker.stream });
  return {
    stop: async () => {
      stopped = true;
      for (const s of stops) s();
      await Promise.allSettled([...running]);
    },
  };
}
