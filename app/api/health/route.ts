import { json, requestIdFrom } from "@/lib/http/endpoint";
import { plainRoute } from "@/lib/http/route";
import { getHealth } from "@/lib/services/health";
import * as spec from "./spec";

/** Not rate limited: load balancers and uptime checks poll it. 503 when the database is down. */
export const GET = plainRoute(spec.getHealth, async (req) => {
  const health = await getHealth();
  return json(health, health.status === "ok" ? 200 : 503, requestIdFrom(req.headers));
});
