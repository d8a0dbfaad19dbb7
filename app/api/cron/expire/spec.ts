import { cronExpireSerializer } from "@/lib/serializers/system";
import { cronOperation } from "../cron-operation";

export const cronExpire = cronOperation("expire", cronExpireSerializer, {
  summary: "Expire due invoices, queue reminders (cron)",
  description: `Moves PENDING, PROCESSING and FAILED invoices whose due date has ended to EXPIRED, clears dead rows and queues the reminder emails that are due; answers how many expired. Called by Vercel Cron (GET) or any scheduler (POST); several may run at once.`,
});
