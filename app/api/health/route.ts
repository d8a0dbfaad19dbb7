import { json, requestIdFrom } from "@/lib/http/endpoint";
import { plainRoute } from "@/lib/http/route";
import { getHealth } from "@/lib/services/health";
import * as spec from "./spec";

/**
 * Not rate limited: load balancers and uptime checks poll it. 503 only when the database is
 * down: a watcher's gap (`status: degraded`, `watcherGaps`) is for operators, not a reason to
 * take the instance out of service.
 */
export const GET = plainRoute(spec.getHealth, async (req) => {
  const health = await getHealth();
  return json(health, health.database === "reachable" ? 200 : 503, requestIdFrom(req.headers));
});
