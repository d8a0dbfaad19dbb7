import { cronRecurringSerializer } from "@/lib/serializers/recurring";
import { cronOperation } from "../cron-operation";

export const cronRecurring = cronOperation("recurring", cronRecurringSerializer, {
  summary: "Create due recurring invoices (cron)",
  description:
    "Creates the invoice of every due period of the recurring invoices (each period once, missed periods caught up) and sends those with autoSend. Called by Vercel Cron (GET) or any scheduler (POST); several may run at once.",
});
