import { defineRoute, methods } from "@/lib/http/route";
import { deliverEmails } from "@/lib/jobs/deliver-emails";
import * as spec from "./spec";

// nodemailer and pdfkit need Node.
export const runtime = "nodejs";

/** Sends due outbox emails (Vercel Cron; guarded by CRON_SECRET). */
export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.cronEmails, ({ ctx }) => deliverEmails(ctx)),
);
