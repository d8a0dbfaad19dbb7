import { serveOpenApiDocument } from "@/lib/openapi/serve";

// APP_URL is read at run time (the server URL in the document), never baked in at build time.
export const dynamic = "force-dynamic";

/** `GET /openapi.3.1.json`: the OpenAPI 3.1 document (3.0 at /openapi.json). */
export function GET(req: Request): Response {
  return serveOpenApiDocument(req, "3.1");
}
