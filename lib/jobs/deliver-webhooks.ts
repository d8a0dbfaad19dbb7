import {
  type DeliveryContext,
  type DeliveryCounts,
  type DeliveryOptions,
  sendDueDeliveries,
} from "@/lib/webhooks/delivery";
import { fanOutNewEvents } from "@/lib/webhooks/fan-out";
import { syncConfiguredEndpoint } from "@/lib/webhooks/subscriptions";

export type DeliverWebhooksOptions = DeliveryOptions;
export type DeliverWebhooksResult = { fannedOut: number } & DeliveryCounts;

/**
 * One pass of the webhook job (the worker every WEBHOOK_INTERVAL_MS, and /api/cron/webhooks):
 * mirror the configured endpoint, fan new outbox events out into deliveries, send the due
 * ones. The rules live in lib/webhooks (subscriptions.ts, fan-out.ts, delivery.ts).
 * `more`: work was left for another pass (the worker runs again at once).
 */
export async function deliverWebhooks(
  ctx: DeliveryContext,
  opts: DeliverWebhooksOptions = {},
): Promise<DeliverWebhooksResult> {
  const started = Date.now();
  await syncConfiguredEndpoint(ctx);
  const fan = await fanOutNewEvents(ctx);
  const sent = await sendDueDeliveries(ctx, opts, started);
  return { fannedOut: fan.events, ...sent, more: fan.more || sent.more };
}
