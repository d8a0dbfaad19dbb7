import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { portalSessionOf } from "@/lib/services/portal/session";
import { portalStatement, portalStatementFile } from "@/lib/services/portal/view";
import * as spec from "./spec";

// pdfkit needs Node (streams, Buffer); it is a serverExternalPackage (next.config.ts).
export const runtime = "nodejs";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getPortalStatement, async ({ ctx, query, request }) => {
    const session = await portalSessionOf(ctx, request);
    if (query.format === "json") return portalStatement(ctx, session, query);
    const file = await portalStatementFile(ctx, session, query);
    return rawReply(
      new Response(file.body, {
        headers: {
          "content-type": file.contentType,
          "content-disposition": `attachment; filename="${file.filename}"`,
          "content-length": String(file.body.length),
        },
      }),
    );
  }),
);
