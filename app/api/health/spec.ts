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
      description: "The service and its database are up",
      plain: { schema: health, example: { status: "ok", database: "reachable", version: "0.1.0" } },
    },
    {
      status: 503,
      description: "The database is unreachable",
      plain: {
        schema: health,
        example: { status: "degraded", database: "unreachable", version: "0.1.0" },
      },
    },
  ],
});
