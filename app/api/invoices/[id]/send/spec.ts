import { BusinessRuleError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { sentInvoiceSerializer } from "@/lib/serializers/invoices";
import { invoiceNotFound, notOwner } from "../../../common-errors";

export const sendInvoice = operation({
  method: "POST",
  path: "/api/invoices/{id}/send",
  operationId: "sendInvoice",
  tag: "Invoices",
  summary: "Send a draft (DRAFT -> PENDING)",
  description:
    "No body. The payment page `{APP_URL}/pay/<id>` becomes payable and the invoice read-only; audit `SENT`, event `invoice.sent`.",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  responses: [{ status: 200, description: "Sent", serializer: sentInvoiceSerializer }],
  errors: [
    new BusinessRuleError("Invoice cannot be sent. Current status: PENDING"),
    notOwner,
    invoiceNotFound,
  ],
});
