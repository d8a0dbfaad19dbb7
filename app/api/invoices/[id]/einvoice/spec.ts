import { operation } from "@/lib/http/route";
import { eInvoiceQuerySchema } from "@/lib/schemas/einvoice";
import { idPath } from "@/lib/schemas/wire";
import { eInvoiceRefusal } from "@/lib/services/invoices/einvoice";
import { invoiceNotFound, notOwner } from "../../../common-errors";

export const getInvoiceEInvoice = operation({
  method: "GET",
  path: "/api/invoices/{id}/einvoice",
  operationId: "getInvoiceEInvoice",
  tag: "Invoices",
  summary: "Invoice as an e-invoice (CII XML)",
  description:
    "The owner's invoice as a structured e-invoice (docs/decisions.md, E-invoices): CII XML, EN 16931 or XRechnung, as a download (`<invoiceNumber>.xml`, `<invoiceNumber>-xrechnung.xml`). Made from the invoice and the profile as it is now. An invoice that cannot become one answers 400 naming each missing field in `details` (the profile's as `profile.<field>`); a draft is refused (`issueDate`): an e-invoice is issued when the invoice is sent. 403 and 404 exactly like the owner view.",
  auth: "authed",
  scope: ["invoices:read"],
  params: idPath,
  query: eInvoiceQuerySchema,
  responses: [
    {
      status: 200,
      description: "The CII XML",
      raw: {
        contentType: "application/xml",
        headers: {
          "Content-Disposition": {
            description: '`attachment; filename="INV-0001.xml"` (`INV-0001-xrechnung.xml`)',
          },
        },
      },
    },
  ],
  errors: [
    notOwner,
    invoiceNotFound,
    eInvoiceRefusal("xrechnung", [
      {
        field: "buyerReference",
        message: "XRechnung needs the buyer reference, e.g. the Leitweg-ID (BT-10, BR-DE-15)",
      },
      {
        field: "profile.phone",
        message: "XRechnung needs the seller's contact phone (BT-42, BR-DE-6)",
      },
    ]),
  ],
});
