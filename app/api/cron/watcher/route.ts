import { cronEndpoint, methods, reply } from "@/lib/http/endpoint";
import { sameInBothForms } from "@/lib/http/forms";
import { watcherTick } from "@/lib/jobs/watcher";

/** One watcher pass per network (Vercel Cron; guarded by CRON_SECRET). */
const run = cronEndpoint(async ({ ctx }) => {
  const results = [];
  for (const network of ["testnet", "mainnet"] as const) {
    results.push(await watcherTick(ctx, network));
  }
  return reply({ results }, sameInBothForms());
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: run, POST: run });
