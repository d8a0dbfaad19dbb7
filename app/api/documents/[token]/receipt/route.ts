import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { documentsReceipt } from "@/lib/services/invoices/public-documents";
import { receiptPage } from "@/lib/services/invoices/receipt-page";
import * as spec from "./spec";

/** docs/decisions.md, Checkout documents. */
export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getDocumentsReceipt, async ({ ctx, params }) => {
    const { invoice, payments } = await documentsReceipt(ctx, params.token);
    return rawReply(receiptPage(invoice, payments, ctx.config.explorers));
  }),
);
