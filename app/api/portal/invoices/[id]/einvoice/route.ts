import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { portalSessionOf } from "@/lib/services/portal/session";
import { portalEInvoice } from "@/lib/services/portal/view";
import * as spec from "./spec";

export const runtime = "nodejs";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getPortalEInvoice, async ({ ctx, params, query, request }) => {
    const session = await portalSessionOf(ctx, request);
    const { xml, filename } = await portalEInvoice(ctx, session, params.id, query.format);
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
