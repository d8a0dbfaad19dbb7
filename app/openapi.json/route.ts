import { serveOpenApiDocument } from "@/lib/openapi/serve";

// APP_URL is read at run time (the server URL in the document), never baked in at build time.
export const dynamic = "force-dynamic";

/** `GET /openapi.json`: the OpenAPI 3.0 document (3.1 at /openapi.3.1.json). */
export function GET(req: Request): Response {
  return serveOpenApiDocument(req, "3.0");
}
