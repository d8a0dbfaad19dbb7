import { defineRoute, methods } from "@/lib/http/route";
import { expireDueInvoices } from "@/lib/jobs/expire-due-invoices";
import { housekeeping } from "@/lib/jobs/housekeeping";
import * as spec from "./spec";

/** Expires due invoices and clears dead rows (Vercel Cron; guarded by CRON_SECRET). */
export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.cronExpire, async ({ ctx }) => {
    const result = await expireDueInvoices(ctx);
    await housekeeping(ctx);
    return result;
  }),
);
