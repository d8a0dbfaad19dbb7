import { operation } from "@/lib/http/route";
import { health } from "@/lib/schemas/system";

export const getHealth = operation({
  method: "GET",
  path: "/api/health",
  operationId: "getHealth",
  tag: "Health",
  summary: "Health check",
  description: "For load balancers and uptime checks. Same body in both forms.",
  auth: "none",
  responses: [
    {
      status: 200,
      description:
        "The service and its database are up (`status` is `degraded` while a ledger watcher reports ledgers it could not read: `watcherGaps`)",
      plain: {
        schema: health,
        example: {
          status: "ok",
          database: "reachable",
          watcher: "ok",
          watcherGaps: [],
          version: "0.1.0",
        },
      },
    },
    {
      status: 503,
      description: "The database is unreachable",
      plain: {
        schema: health,
        example: {
          status: "degraded",
          database: "unreachable",
          watcher: "ok",
          watcherGaps: [],
          version: "0.1.0",
        },
      },
    },
  ],
});
