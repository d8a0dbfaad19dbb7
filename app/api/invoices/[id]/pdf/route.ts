import { paymentPageUrl } from "@/lib/config";
import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { renderInvoicePdf } from "@/lib/services/invoices/invoice-pdf";
import { getOwnerInvoice } from "@/lib/services/invoices/view-invoice";
import { pdfProfile } from "@/lib/services/profile/profile";
import * as spec from "./spec";

// pdfkit needs Node (streams, Buffer); it is a serverExternalPackage (next.config.ts).
export const runtime = "nodejs";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getInvoicePdf, async ({ ctx, params }) => {
    const invoice = await getOwnerInvoice(ctx, params.id);
    const pdf = await renderInvoicePdf(invoice, {
      paymentLink: paymentPageUrl(ctx.config.appUrl, invoice.id),
      profile: await pdfProfile(ctx.db, invoice.freelancerWallet),
    });
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
