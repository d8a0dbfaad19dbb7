import { cronWatcherSerializer } from "@/lib/serializers/system";
import { cronOperation } from "../cron-operation";

export const cronWatcher = cronOperation("watcher", {
  summary: "One ledger-watcher pass per network (cron)",
  description:
    "Reads new payments from Horizon since the stored cursor and settles matching invoices.",
  responses: [
    { status: 200, description: "One result per network", serializer: cronWatcherSerializer },
  ],
});
