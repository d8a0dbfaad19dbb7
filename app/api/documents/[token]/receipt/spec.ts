import { NotFoundError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { NO_RECEIPT_YET } from "@/lib/services/invoices/public-documents";
import { z } from "@/lib/zod";
import { costlyLimit, invoiceNotFound } from "../../../common-errors";

const documentsToken = z.object({
  token: z.string().meta({ description: "The signed token in the payment page's document links" }),
});

export const getDocumentsReceipt = operation({
  method: "GET",
  path: "/api/documents/{token}/receipt",
  operationId: "getDocumentsReceipt",
  tag: "Payments",
  summary: "The client's receipt",
  description:
    "The payment page's \"Download receipt\": a printable page (the browser's Print saves it as a PDF) of what moved on the ledger for the invoice: each payment that counted, with the asset amount sent, what it counted for (its value in the invoice's price currency when priced in fiat), refunds, the transaction hash and ledger, the date; and whether the invoice is paid in full. The same token and 404 rules as GET /api/documents/{token}/invoice; 404 `No payment has been received for this invoice yet` before a payment counted.",
  auth: "public",
  limit: costlyLimit,
  params: documentsToken,
  responses: [
    {
      status: 200,
      description: "The receipt page",
      raw: { contentType: "text/html; charset=utf-8" },
    },
  ],
  errors: [invoiceNotFound, new NotFoundError(NO_RECEIPT_YET)],
});
