import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { clientStatement, clientStatementFile } from "@/lib/services/statements/statement";
import * as spec from "./spec";

// pdfkit needs Node (streams, Buffer); it is a serverExternalPackage (next.config.ts).
export const runtime = "nodejs";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getClientStatement, async ({ ctx, params, query }) => {
    if (query.format === "json") return clientStatement(ctx, params.id, query);
    const file = await clientStatementFile(ctx, params.id, query);
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
