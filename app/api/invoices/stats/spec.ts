import { ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { INVALID_NETWORK } from "@/lib/schemas/common";
import { statsQuerySchema } from "@/lib/schemas/invoices";
import { statsSerializer } from "@/lib/serializers/invoices";

export const getInvoiceStats = operation({
  method: "GET",
  path: "/api/invoices/stats",
  operationId: "getInvoiceStats",
  tag: "Invoices",
  summary: "Dashboard statistics",
  description:
    "`totalRevenue` sums the totals of PAID invoices, `pendingAmount` those awaiting payment (PENDING, PROCESSING, FAILED, EXPIRED), `avgInvoiceValue` is the mean paid total; per asset. `revenueByMonth` covers the last 12 UTC months. Payment links count only with `includeDemoLinks=true`. `revenue` is the headline in the reporting currency (USD): the applied payments' `fiatValue` less refunds, `unpriced` the applied payments without one.",
  auth: "authed",
  scope: ["invoices:read"],
  query: statsQuerySchema,
  responses: [{ status: 200, description: "Statistics", serializer: statsSerializer }],
  errors: [new ValidationError(INVALID_NETWORK), new ValidationError(INVALID_REQUEST)],
});
