import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { costlyLimit, invoiceNotFound, notOwner } from "../../../common-errors";

export const getInvoicePdf = operation({
  method: "GET",
  path: "/api/invoices/{id}/pdf",
  operationId: "getInvoicePdf",
  tag: "Invoices",
  summary: "Invoice as a PDF",
  description:
    "The owner's invoice as a PDF download (`<invoiceNumber>.pdf`); 403 and 404 exactly like the owner view. Rendered off the request thread, and kept until anything it shows changes (the invoice, its status and payment, the profile and logo): asking again answers the same bytes.",
  auth: "authed",
  scope: ["invoices:read"],
  limit: costlyLimit,
  params: idPath,
  responses: [
    {
      status: 200,
      description: "The PDF",
      raw: {
        contentType: "application/pdf",
        headers: {
          "Content-Disposition": { description: '`attachment; filename="INV-0001.pdf"`' },
        },
      },
    },
  ],
  errors: [notOwner, invoiceNotFound],
});
