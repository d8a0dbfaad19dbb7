import { randomUUID } from "node:crypto";
import { getConfig } from "@/lib/config";
import { getOpenApiDocument } from "@/lib/openapi/document";

// APP_URL is read at run time (the server URL in the document), never baked in at build time.
export const dynamic = "force-dynamic";

/** `GET /openapi.json`: public, not rate limited, built once per process. */
export function GET(): Response {
  const { json } = getOpenApiDocument(getConfig().appUrl);
  return new Response(json, {
    status: 200,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "public, max-age=300",
      "access-control-allow-origin": "*",
      "x-request-id": randomUUID(),
    },
  });
}
