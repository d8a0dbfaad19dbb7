import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { documentsInvoicePdf } from "@/lib/services/invoices/public-documents";
import * as spec from "./spec";

// pdfkit needs Node (streams, Buffer); it is a serverExternalPackage (next.config.ts).
export const runtime = "nodejs";

/** docs/decisions.md, Checkout documents. */
export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getDocumentsInvoicePdf, async ({ ctx, params }) => {
    const { invoice, pdf } = await documentsInvoicePdf(ctx, params.token);
    return rawReply(
      new Response(new Uint8Array(pdf), {
        headers: {
          "content-type": "application/pdf",
          "content-disposition": `attachment; filename="${invoice.invoiceNumber}.pdf"`,
          "content-length": String(pdf.length),
          "cache-control": "no-store",
          "referrer-policy": "no-referrer",
        },
      }),
    );
  }),
);
