import { fromStroops, toStroops, trimAmount } from "@/lib/domain/money";
import type { HorizonClient } from "./horizon";

/**
 * Paying with another asset than the invoice's (docs/decisions.md, Path payments): Horizon's
 * `GET /paths/strict-receive` prices each asset the payer could send for the exact amount the
 * freelancer must receive; the transaction is one `path_payment_strict_receive` whose sendMax
 * is the path's source amount plus PATH_SLIPPAGE_BPS.
 */

export const NO_PAYMENT_PATH = "No payment path found";

/** An asset on the wire: XLM has no issuer. */
export type PathAsset = { code: string; issuer: string | null };

export type PaymentPath = {
  /** What the payer sends. */
  sendAsset: PathAsset;
  /** Horizon's estimate of what sending costs (7 decimals). */
  sourceAmount: string;
  /** What the recipient receives (7 decimals). */
  destAmount: string;
  /** The intermediary assets, in order. */
  path: PathAsset[];
};

type HorizonAsset = { asset_type: string; asset_code?: string; asset_issuer?: string };

/** A record of Horizon's paths endpoints (ledger/fixtures/paths-strict-receive.json). */
type HorizonPathRecord = {
  source_asset_type: string;
  source_asset_code?: string;
  source_asset_issuer?: string;
  source_amount: string;
  destination_amount: string;
  path: HorizonAsset[];
};

function fromHorizon(a: HorizonAsset): PathAsset {
  return a.asset_type === "native"
    ? { code: "XLM", issuer: null }
    : { code: a.asset_code ?? "", issuer: a.asset_issuer ?? null };
}

/** `native` or `CODE:ISSUER`, as Horizon's asset lists write them. */
function assetParam(a: PathAsset): string {
  return a.issuer === null ? "native" : `${a.code}:${a.issuer}`;
}

export function sameAsset(a: PathAsset, b: PathAsset): boolean {
  return a.issuer === b.issuer && (a.issuer === null || a.code === b.code);
}

/** The `"XLM"` | `{code, issuer}` of a request as an asset. */
export function pathAsset(a: "XLM" | { code: string; issuer: string }): PathAsset {
  return a === "XLM" ? { code: "XLM", issuer: null } : { code: a.code, issuer: a.issuer };
}

/**
 * Every path Horizon finds that delivers exactly `destAmount` of `destAsset`, from the assets
 * `source` holds (an account: Horizon lists only what it can afford) or from the given assets.
 */
export async function strictReceivePaths(
  horizon: HorizonClient,
  opts: { source: string | PathAsset[]; destAsset: PathAsset; destAmount: string },
): Promise<PaymentPath[]> {
  const dest = opts.destAsset;
  const page = await horizon.get<{ _embedded: { records: HorizonPathRecord[] } }>(
    "/paths/strict-receive",
    {
      ...(typeof opts.source === "string"
        ? { source_account: opts.source }
        : { source_assets: opts.source.map(assetParam).join(",") }),
      destination_asset_type:
        dest.issuer === null
          ? "native"
          : dest.code.length <= 4
            ? "credit_alphanum4"
            : "credit_alphanum12",
      destination_asset_code: dest.issuer === null ? undefined : dest.code,
      destination_asset_issuer: dest.issuer ?? undefined,
      destination_amount: trimAmount(opts.destAmount),
    },
  );
  return page._embedded.records.map((r) => ({
    sendAsset: fromHorizon({
      asset_type: r.source_asset_type,
      asset_code: r.source_asset_code,
      asset_issuer: r.source_asset_issuer,
    }),
    sourceAmount: fromStroops(toStroops(r.source_amount)),
    destAmount: fromStroops(toStroops(r.destination_amount)),
    path: r.path.map(fromHorizon),
  }));
}

/** The cheapest of `paths` starting with `asset` (fewest hops on a tie); null when none does. */
export function cheapestPath(paths: PaymentPath[], asset: PathAsset): PaymentPath | null {
  let best: PaymentPath | null = null;
  for (const p of paths) {
    if (!sameAsset(p.sendAsset, asset)) continue;
    const cost = toStroops(p.sourceAmount);
    if (
      !best ||
      cost < toStroops(best.sourceAmount) ||
      (cost === toStroops(best.sourceAmount) && p.path.length < best.path.length)
    ) {
      best = p;
    }
  }
  return best;
}

/** The cheapest path per source asset, in the order Horizon gave them. */
export function cheapestPerAsset(paths: PaymentPath[]): PaymentPath[] {
  const out: PaymentPath[] = [];
  for (const p of paths) {
    if (out.some((o) => sameAsset(o.sendAsset, p.sendAsset))) continue;
    const best = cheapestPath(paths, p.sendAsset);
    if (best) out.push(best);
  }
  return out;
}

/**
 * sendMax: the estimated source amount plus `slippageBps` basis points, rounded UP to the
 * stroop (exact: bigint stroops, never a float).
 */
export function sendMaxFor(sourceAmount: string, slippageBps: number): string {
  const stroops = toStroops(sourceAmount);
  const bps = BigInt(slippageBps);
  return fromStroops((stroops * (10_000n + bps) + 9_999n) / 10_000n);
}
