import { defineRoute, methods } from "@/lib/http/route";
import { createRecurringInvoices } from "@/lib/jobs/create-recurring-invoices";
import { getRuntime } from "@/lib/runtime";
import * as spec from "./spec";

/** Creates due recurring invoices (Vercel Cron; guarded by CRON_SECRET). */
export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.cronRecurring, async ({ ctx }) =>
    createRecurringInvoices(ctx, { rateLimiter: (await getRuntime()).rateLimiter }),
  ),
);
