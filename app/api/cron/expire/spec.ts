import { operation } from "@/lib/http/route";
import { cronExpireSerializer } from "@/lib/serializers/system";

export const cronExpire = operation({
  method: ["GET", "POST"],
  path: "/api/cron/expire",
  operationId: "cronExpire",
  tag: "Cron",
  summary: "Expire due invoices (cron)",
  description:
    "Moves PENDING/PROCESSING invoices whose due date has ended to EXPIRED and clears dead rows. Called by Vercel Cron (GET) or any scheduler (POST); several may run at once.",
  auth: "cron",
  responses: [
    { status: 200, description: "How many invoices expired", serializer: cronExpireSerializer },
  ],
  errors: [],
});
