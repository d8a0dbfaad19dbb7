import { demoLedgerUrl } from "@/lib/client/wallets/options";
import { getConfig } from "@/lib/config";

// DEMO_WALLET and the Horizon URLs are read at run time, never baked in at build time.
export const dynamic = "force-dynamic";

/**
 * `/demo-ledger/<network>/...`: the demo wallet's way to its local ledger from the page
 * (docs/decisions.md, Wallets). The pages' Content-Security-Policy allows `connect-src 'self'`
 * only, so the browser asks here and the server forwards to the network's Horizon, only when
 * the demo wallet is offered on that network (DEMO_WALLET on and a loopback Horizon; 404
 * otherwise), and only what the demo wallet needs: read its account, friendbot, the local
 * issuers and faucet, and submitting its own trustline; for the demo smart wallet, creating it
 * and the Stellar RPC (`/rpc`) that simulates its asset contract transfers.
 */
const ALLOWED: Record<string, RegExp> = {
  GET: /^(accounts\/G[A-Z2-7]{55}|friendbot|local\/issuers)$/,
  // The demo smart wallet: its creation, and simulating its asset contract transfers (RPC).
  POST: /^(local\/fund|local\/smart-wallets|transactions|rpc)$/,
};

type Params = { params: Promise<{ network: string; path: string[] }> };

async function forward(req: Request, { params }: Params): Promise<Response> {
  const { network, path } = await params;
  const base = demoLedgerUrl(getConfig(), network);
  const target = path.join("/");
  if (!base || !ALLOWED[req.method]?.test(target)) {
    return Response.json({ error: "Not found" }, { status: 404 });
  }
  const url = `${base}/${target}${new URL(req.url).search}`;
  const res = await fetch(url, {
    method: req.method,
    headers: { "content-type": req.headers.get("content-type") ?? "application/json" },
    body: req.method === "POST" ? await req.text() : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  return new Response(await res.text(), {
    status: res.status,
    headers: {
      "content-type": res.headers.get("content-type") ?? "application/json",
      "cache-control": "no-store",
    },
  });
}

export const GET = forward;
export const POST = forward;
