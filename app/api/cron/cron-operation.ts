import { type JsonSuccess, operation } from "@/lib/http/route";

/**
 * The cron routes: GET for Vercel Cron, POST for any other scheduler; they take the
 * CRON_SECRET and are not rate limited. Each answers its job's result with 200.
 */
export function cronOperation(
  job: string,
  serializer: JsonSuccess["serializer"],
  doc: { summary: string; description: string },
) {
  return operation({
    method: ["GET", "POST"],
    path: `/api/cron/${job}`,
    operationId: `cron${job[0].toUpperCase()}${job.slice(1)}`,
    tag: "Cron",
    auth: "cron",
    ...doc,
    responses: [{ status: 200, description: "The job's result", serializer }],
  });
}
