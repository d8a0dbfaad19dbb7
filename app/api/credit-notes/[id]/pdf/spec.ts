import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { costlyLimit, creditNoteNotFound, notOwner } from "../../../common-errors";

export const getCreditNotePdf = operation({
  method: "GET",
  path: "/api/credit-notes/{id}/pdf",
  operationId: "getCreditNotePdf",
  tag: "Invoices",
  summary: "Credit note as a PDF",
  description:
    "The owner's credit note as a PDF download (`<number>.pdf`), in the invoice's language: the invoice it corrects, seller and buyer with their tax ids, the reason, the credited lines, the tax breakdown and the totals (and the tax in the invoice's tax currency when it has one).",
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
          "Content-Disposition": { description: '`attachment; filename="CN-0001.pdf"`' },
        },
      },
    },
  ],
  errors: [notOwner, creditNoteNotFound],
});
