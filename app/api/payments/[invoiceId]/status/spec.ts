import { operation } from "@/lib/http/route";
import { invoiceIdPath } from "@/lib/schemas/wire";
import { paymentStatusSerializer } from "@/lib/serializers/payments";
import { invoiceNotFound } from "../../../common-errors";

export const getPaymentStatus = operation({
  method: "GET",
  path: "/api/payments/{invoiceId}/status",
  operationId: "getPaymentStatus",
  tag: "Payments",
  summary: "Payment status of an invoice",
  description: [
    "Poll every 5 seconds while waiting for a payment, or follow",
    "`GET /api/payments/{invoiceId}/events` to be told at once. The answer carries an `ETag`;",
    "send it back in `If-None-Match` and an unchanged status is a bodiless `304 Not Modified`.",
    "Each instance answers unchanged invoices from memory and forgets an invoice as soon as any",
    "instance commits a change to it.",
  ].join(" "),
  auth: "public",
  etag: true,
  internalError: "Failed to fetch payment status",
  params: invoiceIdPath,
  responses: [
    { status: 200, description: "The payment status", serializer: paymentStatusSerializer },
  ],
  errors: [invoiceNotFound],
});
