import { json } from "@/lib/http/endpoint";
import { getHealth } from "@/lib/services/health";

/** Not rate limited: load balancers and uptime checks poll it. 503 when the database is down. */
export async function GET() {
  const health = await getHealth();
  return json(health, health.status === "ok" ? 200 : 503, crypto.randomUUID());
}
