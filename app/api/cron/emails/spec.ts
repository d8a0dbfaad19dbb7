import { cronEmailsSerializer } from "@/lib/serializers/email";
import { cronOperation } from "../cron-operation";

export const cronEmails = cronOperation("emails", cronEmailsSerializer, {
  summary: "Deliver due emails (cron)",
  description:
    "Sends the email outbox's due messages over SMTP (claimed with FOR UPDATE SKIP LOCKED, so several runs at once never send one twice); a 5xx answer fails a message at once, a 4xx answer or a connection error retries it with exponential backoff for 24 h. Without `SMTP_URL` due messages are closed as `skipped`. Answers what this pass did.",
});
