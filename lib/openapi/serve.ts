import { getConfig } from "@/lib/config";
import { requestIdOf } from "@/lib/http/request-id";
import { getOpenApiDocument, type OpenApiVersion } from "./document";

/**
 * `GET /openapi.json` (3.0) and `GET /openapi.3.1.json` (3.1): public, not rate limited, each
 * built once per process, with the request's `X-Request-Id` as every response has.
 */
export function serveOpenApiDocument(req: Request, version: OpenApiVersion): Response {
  const { json } = getOpenApiDocument(getConfig().appUrl, version);
  return new Response(json, {
    status: 200,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "public, max-age=300",
      "access-control-allow-origin": "*",
      "x-request-id": requestIdOf(req.headers.get("x-request-id")),
    },
  });
}
