import { operation } from "@/lib/http/route";
import { z } from "@/lib/zod";
import { costlyLimit, invoiceNotFound } from "../../../common-errors";

const documentsToken = z.object({
  token: z.string().meta({
    description:
      "The signed token in the payment page's document links (`<invoiceId>.<signature>`); only `/pay/<id>` shows it",
  }),
});

export const getDocumentsInvoicePdf = operation({
  method: "GET",
  path: "/api/documents/{token}/invoice",
  operationId: "getDocumentsInvoicePdf",
  tag: "Payments",
  summary: "The invoice PDF for the client",
  description:
    'The payment page\'s "Download invoice (PDF)": the same PDF the owner downloads (GET /api/invoices/{id}/pdf, its cache and worker threads), without sign-in, for whoever holds the link the payment page `/pay/<id>` shows. A token that is not ours, or an invoice the payment page does not show (deleted, an expired link), is 404 `Invoice not found`; drafts and cancelled invoices as on the payment page. Counted in the costly per-IP budget.',
  auth: "public",
  limit: costlyLimit,
  params: documentsToken,
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
  errors: [invoiceNotFound],
});
