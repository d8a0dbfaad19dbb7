import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { creditNotePdf } from "@/lib/services/credit-notes/credit-note-pdf-file";
import * as spec from "./spec";

// pdfkit needs Node (streams, Buffer); it is a serverExternalPackage (next.config.ts).
export const runtime = "nodejs";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getCreditNotePdf, async ({ ctx, params }) => {
    const { pdf, number } = await creditNotePdf(ctx, params.id);
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
