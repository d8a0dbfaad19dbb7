import { defineRoute, methods } from "@/lib/http/route";
import { watcherTick } from "@/lib/jobs/watcher";
import * as spec from "./spec";

/** One watcher pass per network (Vercel Cron; guarded by CRON_SECRET). */
export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.cronWatcher, async ({ ctx }) => {
    const results = [];
    for (const network of ["testnet", "mainnet"] as const) {
      results.push(await watcherTick(ctx, network));
    }
    return { results };
  }),
);
