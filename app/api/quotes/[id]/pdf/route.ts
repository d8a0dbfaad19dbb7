import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { quotePdf } from "@/lib/services/quotes/quote-pdf";
import * as spec from "./spec";

// pdfkit needs Node (streams, Buffer); it is a serverExternalPackage (next.config.ts).
export const runtime = "nodejs";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getQuotePdf, async ({ ctx, params }) => {
    const { pdf, number } = await quotePdf(ctx, params.id);
    return rawReply(
      new Response(new Uint8Array(pdf), {
        headers: {
          "content-type": "application/pdf",
          "content-disposition": `attachment; filename="${number}.pdf"`,
          "content-length": String(pdf.length),
        },
      }),
    );
  }),
);
