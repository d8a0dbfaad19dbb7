import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { costlyLimit, quoteNotFound } from "../../../common-errors";

export const getQuotePdf = operation({
  method: "GET",
  path: "/api/quotes/{id}/pdf",
  operationId: "getQuotePdf",
  tag: "Quotes",
  summary: "Quote as a PDF",
  description:
    "The quote as a PDF download (`<number>.pdf`) in its language, for the client's page and the owner alike (public, like GET /api/quotes/{id}): seller and buyer, the lines with their tax, the tax breakdown, the total and validUntil. No emails, notes or audit trail.",
  auth: "public",
  limit: costlyLimit,
  params: idPath,
  responses: [
    {
      status: 200,
      description: "The PDF",
      raw: {
        contentType: "application/pdf",
        headers: {
          "Content-Disposition": { description: '`attachment; filename="QT-0001.pdf"`' },
        },
      },
    },
  ],
  errors: [quoteNotFound],
});
