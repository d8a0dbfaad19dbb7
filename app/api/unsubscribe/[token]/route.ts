import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { stopReminders, unsubscribeTarget } from "@/lib/services/email/unsubscribe";
import { unsubscribePage } from "@/lib/services/email/unsubscribe-page";
import * as spec from "./spec";

/** docs/decisions.md, Reminders and receipts. */
export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getUnsubscribe, async ({ ctx, params }) =>
    rawReply(unsubscribePage(await unsubscribeTarget(ctx, params.token), params.token)),
  ),
  defineRoute(spec.postUnsubscribe, async ({ ctx, params }) =>
    rawReply(unsubscribePage(await stopReminders(ctx, params.token), params.token)),
  ),
);
