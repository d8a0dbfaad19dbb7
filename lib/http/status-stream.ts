import { NotFoundError, RateLimitedError } from "@/lib/domain/errors";
import { logger } from "@/lib/logger";
import { StatusStreams, TOO_MANY_STREAMS } from "@/lib/realtime/status-streams";
import { getRuntime, type Runtime } from "@/lib/runtime";
import { paymentStatusSerializer } from "@/lib/serializers/payments";
import type { ServiceContext } from "@/lib/services/context";
import { getPaymentStatus, type PaymentStatus } from "@/lib/services/payments/status";
import { clientIp } from "./client-ip";
import { type Reply, rawReply } from "./endpoint";
import { etagOf } from "./etag";
import { successBody, type WireForm } from "./forms";

const KEY = Symbol.for("stellar-invoicing.status-streams");
type Holder = { [KEY]?: StatusStreams<PaymentStatus> };

/** This instance's streams, created with the runtime's change feed on first use. */
function streamsOf(runtime: Runtime): StatusStreams<PaymentStatus> {
  const g = globalThis as Holder;
  g[KEY] ??= new StatusStreams<PaymentStatus>(
    runtime.changes,
    (invoiceId) =>
      getPaymentStatus(
        {
          db: runtime.database.db,
          config: runtime.config,
          now: () => new Date(),
          logger,
          requestId: "status-stream",
          statusCache: runtime.statusCache,
        },
        invoiceId,
      ).catch((err) => {
        if (err instanceof NotFoundError) return null;
        throw err;
      }),
    runtime.config.statusStreams,
    logger,
  );
  return g[KEY];
}

/**
 * GET /api/payments/{invoiceId}/events: the status at once (404 first if there is no such
 * invoice), then a message whenever it changes, as the status endpoint's body in the
 * caller's form, with that body's ETag as the event id (docs/decisions.md, "Pushed status").
 */
export async function paymentStatusEvents(
  ctx: ServiceContext,
  invoiceId: string,
  form: WireForm,
  request: Request,
): Promise<Reply> {
  const runtime = await getRuntime();
  const streams = streamsOf(runtime);
  const ip = clientIp(request.headers, ctx.config);
  // A change notified while the status is read reaches the stream (StatusStreams.stream).
  const epoch = streams.begin();
  const initial = await getPaymentStatus(ctx, invoiceId);
  if (!streams.admits(ip)) throw new RateLimitedError(TOO_MANY_STREAMS, 30);
  const render = (status: PaymentStatus) => {
    const body = successBody(form, status, paymentStatusSerializer, {
      appUrl: ctx.config.appUrl,
      now: new Date(),
    });
    const data = JSON.stringify(body);
    return { data, id: etagOf(data) };
  };
  const stream = streams.stream(invoiceId, ip, initial, render, request.signal, epoch);
  return rawReply(
    new Response(stream, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        // no-transform: a compressing front would hold the messages back.
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
      },
    }),
  );
}
