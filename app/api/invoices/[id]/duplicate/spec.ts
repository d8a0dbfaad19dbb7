import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { ownerInvoiceSerializer } from "@/lib/serializers/invoices";
import { invoiceNotFound, notOwner } from "../../../common-errors";

export const duplicateInvoice = operation({
  method: "POST",
  path: "/api/invoices/{id}/duplicate",
  operationId: "duplicateInvoice",
  tag: "Invoices",
  summary: "Duplicate an invoice as a new draft",
  description:
    "A new DRAFT with the invoice's client, freelancer details, line items, taxes, discount, currency, network and reminders, under the wallet's next number; no due date, payments or history. Any status may be copied (a payment link may not: 404).",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  responses: [
    {
      status: 201,
      description: "The new draft (owner view)",
      serializer: ownerInvoiceSerializer,
    },
  ],
  errors: [notOwner, invoiceNotFound],
});
