import { operation, type Success } from "@/lib/http/route";

/**
 * The cron routes: GET for Vercel Cron, POST for any other scheduler; they take the
 * CRON_SECRET and are not rate limited.
 */
export function cronOperation<const R extends readonly Success[]>(
  job: string,
  doc: { summary: string; description: string; responses: R },
) {
  return operation({
    method: ["GET", "POST"],
    path: `/api/cron/${job}`,
    operationId: `cron${job[0].toUpperCase()}${job.slice(1)}`,
    tag: "Cron",
    auth: "cron",
    ...doc,
  });
}
