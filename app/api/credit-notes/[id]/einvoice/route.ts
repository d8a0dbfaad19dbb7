import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { creditNoteEInvoice } from "@/lib/services/credit-notes/einvoice";
import * as spec from "./spec";

export const runtime = "nodejs";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getCreditNoteEInvoice, async ({ ctx, params, query }) => {
    const { xml, filename } = await creditNoteEInvoice(ctx, params.id, query.format);
    const body = Buffer.from(xml, "utf8");
    return rawReply(
      new Response(new Uint8Array(body), {
        headers: {
          "content-type": "application/xml; charset=utf-8",
          "content-disposition": `attachment; filename="${filename}"`,
          "content-length": String(body.length),
        },
      }),
    );
  }),
);
