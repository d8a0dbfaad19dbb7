import { defineRoute, methods } from "@/lib/http/route";
import { expireDueInvoices } from "@/lib/jobs/expire-due-invoices";
import { housekeeping } from "@/lib/jobs/housekeeping";
import { sendReminders } from "@/lib/jobs/send-reminders";
import * as spec from "./spec";

/** Expires due invoices, clears dead rows, queues due reminders (Vercel Cron; CRON_SECRET). */
export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.cronExpire, async ({ ctx }) => {
    const result = await expireDueInvoices(ctx);
    await housekeeping(ctx);
    // Reminders are due-date work too (docs/decisions.md, Reminders and receipts).
    await sendReminders(ctx);
    return result;
  }),
);
