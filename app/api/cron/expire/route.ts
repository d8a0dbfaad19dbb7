import { cronEndpoint, methods, reply } from "@/lib/http/endpoint";
import { sameInBothForms } from "@/lib/http/forms";
import { expireDueInvoices } from "@/lib/jobs/expire-due-invoices";
import { housekeeping } from "@/lib/jobs/housekeeping";

/** Expires due invoices and clears dead rows (Vercel Cron; guarded by CRON_SECRET). */
const run = cronEndpoint(async ({ ctx }) => {
  const result = await expireDueInvoices(ctx);
  await housekeeping(ctx);
  return reply(result, sameInBothForms());
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: run, POST: run });
