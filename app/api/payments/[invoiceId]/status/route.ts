import { serveFromFront } from "@/lib/http/front";
import { defineRoute, methods } from "@/lib/http/route";
import { getPaymentStatus } from "@/lib/services/payments/status";
import * as spec from "./spec";

const get = defineRoute(spec.getPaymentStatus, ({ ctx, params }) =>
  getPaymentStatus(ctx, params.invoiceId),
);
serveFromFront("paymentStatus", get);

export const { GET, POST, PUT, PATCH, DELETE } = methods(get);
