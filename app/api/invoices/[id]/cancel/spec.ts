import { BusinessRuleError, ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { cancelInvoiceSchema } from "@/lib/schemas/invoices";
import { idPath } from "@/lib/schemas/wire";
import { cancelledInvoiceSerializer } from "@/lib/serializers/invoices";
import { invoiceNotFound, notOwner } from "../../../common-errors";

export const cancelInvoice = operation({
  method: "POST",
  path: "/api/invoices/{id}/cancel",
  operationId: "cancelInvoice",
  tag: "Invoices",
  summary: "Cancel an invoice",
  description:
    "From DRAFT, PENDING, PROCESSING, FAILED or EXPIRED; the body (`reason`) is optional. Audit `CANCELLED`, event `invoice.cancelled`.",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  body: {
    schema: cancelInvoiceSchema,
    examples: {
      request: { summary: "With a reason", value: { reason: "Client changed plans" } },
    },
  },
  responses: [{ status: 200, description: "Cancelled", serializer: cancelledInvoiceSerializer }],
  errors: [
    new BusinessRuleError("Invoice cannot be cancelled. Current status: PAID"),
    new ValidationError(INVALID_REQUEST),
    notOwner,
    invoiceNotFound,
  ],
});
