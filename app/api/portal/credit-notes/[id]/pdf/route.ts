import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { portalSessionOf } from "@/lib/services/portal/session";
import { portalCreditNotePdf } from "@/lib/services/portal/view";
import * as spec from "./spec";

// pdfkit needs Node (streams, Buffer); it is a serverExternalPackage (next.config.ts).
export const runtime = "nodejs";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getPortalCreditNotePdf, async ({ ctx, params, request }) => {
    const session = await portalSessionOf(ctx, request);
    const { pdf, number } = await portalCreditNotePdf(ctx, session, params.id);
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
