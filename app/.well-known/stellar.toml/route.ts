import { getConfig } from "@/lib/config";
import { stellarToml } from "@/lib/stellar/sep7";

// SEP7_SIGNING_SECRET and APP_URL are read at run time, never baked in at build time.
export const dynamic = "force-dynamic";

/**
 * `GET /.well-known/stellar.toml` (SEP-1): the key wallets check SEP-7 URI signatures with
 * (docs/decisions.md, SEP-7 request signing). SEP-1 asks for CORS open to all and text/plain.
 */
export function GET(): Response {
  return new Response(stellarToml(getConfig()), {
    status: 200,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "public, max-age=300",
      "access-control-allow-origin": "*",
    },
  });
}
