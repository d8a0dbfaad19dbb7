import { operation } from "@/lib/http/route";
import { eInvoiceQuerySchema } from "@/lib/schemas/einvoice";
import { idPath } from "@/lib/schemas/wire";
import { eInvoiceRefusal } from "@/lib/services/invoices/einvoice";
import { creditNoteNotFound, notOwner } from "../../../common-errors";

export const getCreditNoteEInvoice = operation({
  method: "GET",
  path: "/api/credit-notes/{id}/einvoice",
  operationId: "getCreditNoteEInvoice",
  tag: "Invoices",
  summary: "Credit note as an e-invoice (CII XML)",
  description:
    "The owner's credit note as a structured e-invoice (docs/decisions.md, E-invoices): CII XML of type 381 naming the invoice it corrects (BT-25) and its issue date (BT-26), EN 16931 or XRechnung, as a download (`<number>.xml`, `<number>-xrechnung.xml`). Its parties, currency and tax currency are its invoice's. One that cannot become an e-invoice answers 400 naming each missing field in `details`, as an invoice's does.",
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
            description: '`attachment; filename="CN-0001.xml"` (`CN-0001-xrechnung.xml`)',
          },
        },
      },
    },
  ],
  errors: [
    notOwner,
    creditNoteNotFound,
    eInvoiceRefusal("xrechnung", [
      {
        field: "buyerReference",
        message: "XRechnung needs the buyer reference, e.g. the Leitweg-ID (BT-10, BR-DE-15)",
      },
    ]),
  ],
});
