import { serveFromFront } from "@/lib/http/front";
import { defineRoute, methods } from "@/lib/http/route";
import { paymentStatusEvents } from "@/lib/http/status-stream";
import * as spec from "./spec";

// A stream stays open as long as the host allows (docs/decisions.md, "Pushed status").
export const dynamic = "force-dynamic";

const stream = defineRoute(spec.streamPaymentStatus, ({ ctx, params, form, request }) =>
  paymentStatusEvents(ctx, params.invoiceId, form, request),
);
serveFromFront("paymentEvents", stream);

export const { GET, POST, PUT, PATCH, DELETE } = methods(stream);
