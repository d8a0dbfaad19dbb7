import { operation } from "@/lib/http/route";
import { cronWatcherSerializer } from "@/lib/serializers/system";

export const cronWatcher = operation({
  method: ["GET", "POST"],
  path: "/api/cron/watcher",
  operationId: "cronWatcher",
  tag: "Cron",
  summary: "One ledger-watcher pass per network (cron)",
  description:
    "Reads new payments from Horizon since the stored cursor and settles matching invoices.",
  auth: "cron",
  responses: [
    { status: 200, description: "One result per network", serializer: cronWatcherSerializer },
  ],
  errors: [],
});
