import { fromStroops, toStroops } from "@/lib/domain/money";

/**
 * Paying with another asset than the invoice's (docs/decisions.md, Path payments): the ledger
 * source's path finder (`LedgerSource.strictReceivePaths`; Horizon's
 * `GET /paths/strict-receive`) prices each asset the payer could send for the exact amount the
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

export function sameAsset(a: PathAsset, b: PathAsset): boolean {
  return a.issuer === b.issuer && (a.issuer === null || a.code === b.code);
}

/** The `"XLM"` | `{code, issuer}` of a request as an asset. */
export function pathAsset(a: "XLM" | { code: string; issuer: string }): PathAsset {
  return a === "XLM" ? { code: "XLM", issuer: null } : { code: a.code, issuer: a.issuer };
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
