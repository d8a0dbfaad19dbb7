import { cronWatcherSerializer } from "@/lib/serializers/system";
import { cronOperation } from "../cron-operation";

export const cronWatcher = cronOperation("watcher", cronWatcherSerializer, {
  summary: "One ledger-watcher pass per network (cron)",
  description: `Reads new payments from Horizon since the stored cursor and records those that pay an invoice; answers one result per network.`,
});
