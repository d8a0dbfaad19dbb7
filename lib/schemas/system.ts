import { z } from "@/lib/zod";
import { int, wire } from "./wire";

/** Responses of the price, health and cron routes (the same in both forms). */

export const xlmPrice = wire(
  "XlmPrice",
  z.object({
    usd: z.number().meta({ description: "XLM price in USD", example: 0.1234 }),
    cached: z.boolean().meta({ description: "Served from the server cache (younger than 60 s)" }),
    stale: z
      .literal(true)
      .optional()
      .meta({ description: "Present only when true: the last known price, the source failed" }),
  }),
);

/** Health is never enveloped: load balancers read it as is. */
export const health = z
  .object({
    status: z.enum(["ok", "degraded"]),
    database: z.enum(["reachable", "unreachable"]),
    watcher: z.enum(["ok", "degraded"]).meta({
      description:
        "`degraded` while a ledger watcher has ledgers its source no longer held when it reached them (Stellar RPC's retention): listed in `watcherGaps`",
    }),
    watcherGaps: z.array(
      z.object({
        network: z.enum(["testnet", "mainnet"]),
        source: z.string().meta({ example: "rpc" }),
        since: z.string().meta({ description: "When the watcher found the ledgers gone" }),
        fromLedger: z.number().int(),
        toLedger: z.number().int(),
        backfill: z.enum(["horizon", "skipped"]).meta({
          description:
            "`horizon`: being read through the network's Horizon (the entry goes once read); `skipped`: not read (RPC_GAP_BACKFILL=off)",
        }),
      }),
    ),
    version: z.string().meta({ example: "0.1.0" }),
  })
  .meta({ id: "Health" });

export const cronExpireResult = wire(
  "CronExpireResult",
  z.object({ expired: int.meta({ description: "Invoices moved to EXPIRED" }) }),
);

export const cronWebhooksResult = wire(
  "CronWebhooksResult",
  z.object({
    fannedOut: int,
    attempted: int,
    delivered: int,
    retrying: int,
    failed: int,
    more: z.boolean().meta({ description: "Work was left for another pass" }),
  }),
);

export const cronWatcherResult = wire(
  "CronWatcherResult",
  z.object({
    results: z.array(
      z.object({
        network: z.enum(["testnet", "mainnet"]),
        skipped: z.enum(["idle", "busy"]).optional(),
        horizonRequests: int,
        records: int,
        matched: int,
        more: z.boolean(),
        cursor: z.string().nullable(),
      }),
    ),
  }),
);
