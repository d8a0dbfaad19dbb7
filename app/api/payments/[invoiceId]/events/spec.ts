import { RateLimitedError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { TOO_MANY_STREAMS } from "@/lib/realtime/status-streams";
import { invoiceIdPath } from "@/lib/schemas/wire";
import { invoiceNotFound } from "../../../common-errors";

export const streamPaymentStatus = operation({
  method: "GET",
  path: "/api/payments/{invoiceId}/events",
  operationId: "streamPaymentStatus",
  tag: "Payments",
  summary: "Payment status as it changes (server-sent events)",
  description: [
    "A `text/event-stream`: `retry: 5000`, then the current status at once as a message whose",
    "`data` is exactly the body of `GET /api/payments/{invoiceId}/status` (same form) and whose",
    "`id` is that body's ETag, then one message every time it changes (a payment, partial or",
    "late, a refund, a new quote, cancel, expiry), from whichever instance or worker committed",
    "the change, and a `: keepalive` comment every 15 s. The stream stays open until the client",
    "closes it; a host may end it sooner (Vercel ends a function after its maximum duration):",
    "browsers reconnect after `retry` and get the current status again.",
    "At most `STATUS_STREAMS_PER_IP` (default 10) open streams per client address and",
    "`STATUS_STREAMS_MAX` (default 10,000) per instance: more get 429 and should poll the",
    "status endpoint every 5 s instead.",
  ].join(" "),
  auth: "public",
  internalError: "Failed to fetch payment status",
  params: invoiceIdPath,
  responses: [
    {
      status: 200,
      description: "The stream of status messages",
      raw: { contentType: "text/event-stream" },
    },
  ],
  errors: [invoiceNotFound, new RateLimitedError(TOO_MANY_STREAMS, 30)],
});
