import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { ownerInvoiceSerializer } from "@/lib/serializers/invoices";
import { invoiceNotFound, notOwner } from "../../../common-errors";

export const getOwnerInvoice = operation({
  method: "GET",
  path: "/api/invoices/{id}/owner",
  operationId: "getOwnerInvoice",
  tag: "Invoices",
  summary: "Owner view of an invoice",
  description: "Every field, with line items, payments and the audit trail.",
  auth: "authed",
  scope: ["invoices:read"],
  params: idPath,
  responses: [{ status: 200, description: "The owner view", serializer: ownerInvoiceSerializer }],
  errors: [notOwner, invoiceNotFound],
});
