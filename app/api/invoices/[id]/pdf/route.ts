import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { invoicePdf } from "@/lib/services/invoices/invoice-pdf";
import { getOwnerInvoice } from "@/lib/services/invoices/view-invoice";
import * as spec from "./spec";

// pdfkit needs Node (streams, Buffer); it is a serverExternalPackage (next.config.ts).
export const runtime = "nodejs";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getInvoicePdf, async ({ ctx, params }) => {
    const invoice = await getOwnerInvoice(ctx, params.id);
    const pdf = await invoicePdf(ctx.db, ctx.config, invoice);
    return rawReply(
      new Response(new Uint8Array(pdf), {
        headers: {
          "content-type": "application/pdf",
          "content-disposition": `attachment; filename="${invoice.invoiceNumber}.pdf"`,
          "content-length": String(pdf.length),
        },
      }),
    );
  }),
);
