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
  description: "Poll every 5 seconds while waiting for a payment.",
  auth: "public",
  internalError: "Failed to fetch payment status",
  params: invoiceIdPath,
  responses: [
    { status: 200, description: "The payment status", serializer: paymentStatusSerializer },
  ],
  errors: [invoiceNotFound],
});
