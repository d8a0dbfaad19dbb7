import type { Config } from "@/lib/config";
import { NETWORK_PASSPHRASES } from "@/lib/config";
import type { NetworkName } from "@/lib/schemas/common";
import { LedgerSourceError, type LedgerSourceFailure } from "../errors";

/**
 * A small Horizon HTTP client over fetch: every read has a timeout (the SDK's HTTP client
 * has none), failures are classified once here, and the shapes read are those of the real
 * Horizon (see tests/fixtures/horizon). The SDK is still used for everything XDR. Only the
 * Horizon ledger source (./index.ts) and its stream use it.
 */
export type HorizonFailure = LedgerSourceFailure;
/** Horizon's failures are the ledger sources' (lib/ledger-sources/errors.ts). */
export const HorizonError = LedgerSourceError;
export type HorizonError = LedgerSourceError;

export type HorizonClient = {
  network: NetworkName;
  passphrase: string;
  baseUrl: string;
  get: <T>(path: string, query?: Record<string, string | number | undefined>) => Promise<T>;
  /** POST /transactions; resolves with Horizon's success body, throws HorizonError otherwise. */
  submit: (envelopeXdr: string) => Promise<SubmitResponse>;
  /** For streaming: the absolute URL of a path with a query. */
  url: (path: string, query?: Record<string, string | number | undefined>) => string;
};

export type SubmitResponse = {
  hash: string;
  ledger: number;
  successful: boolean;
  envelope_xdr: string;
  result_xdr: string;
};

/** Horizon holds a submission up to ~30 s before its own 504; wait a little longer. */
const SUBMIT_TIMEOUT_MS = 35_000;

export function horizonFor(config: Pick<Config, "horizon">, network: NetworkName): HorizonClient {
  const baseUrl = config.horizon[network];
  const url = (path: string, query?: Record<string, string | number | undefined>) => {
    const u = new URL(baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {}))
      if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  };
  return {
    network,
    passphrase: NETWORK_PASSPHRASES[network],
    baseUrl,
    url,
    get: async <T>(path: string, query?: Record<string, string | number | undefined>) => {
      const res = await request(
        url(path, query),
        { headers: { accept: "application/json" } },
        config.horizon.timeoutMs,
      );
      return (await res.json()) as T;
    },
    submit: async (envelopeXdr: string) => {
      const res = await request(
        url("/transactions"),
        {
          method: "POST",
          headers: {
            accept: "application/json",
            "content-type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams({ tx: envelopeXdr }).toString(),
        },
        SUBMIT_TIMEOUT_MS,
      );
      return (await res.json()) as SubmitResponse;
    },
  };
}

async function request(url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === "TimeoutError" || name === "AbortError")
      throw new LedgerSourceError({ kind: "timeout" }, 0);
    throw new LedgerSourceError({ kind: "unavailable", detail: String(err) }, 0);
  }
  if (res.ok) return res;
  const body = (await res.json().catch(() => null)) as {
    type?: string;
    detail?: string;
    extras?: {
      result_codes?: { transaction?: string; operations?: string[] };
      result_xdr?: string;
    };
  } | null;
  if (res.status === 404) throw new LedgerSourceError({ kind: "not_found" }, 404);
  if (res.status === 429) {
    const retryAfter = Number(res.headers.get("retry-after") ?? "5");
    throw new LedgerSourceError(
      { kind: "rate_limited", retryAfter: Number.isFinite(retryAfter) ? retryAfter : 5 },
      429,
    );
  }
  if (res.status === 504) throw new LedgerSourceError({ kind: "timeout" }, 504);
  if (res.status >= 500) {
    throw new LedgerSourceError(
      { kind: "unavailable", detail: body?.detail ?? res.statusText },
      res.status,
    );
  }
  const codes = body?.extras?.result_codes;
  if (codes?.transaction) {
    throw new LedgerSourceError(
      {
        kind: "transaction_failed",
        transaction: codes.transaction,
        operations: codes.operations ?? [],
        resultXdr: body?.extras?.result_xdr,
      },
      res.status,
    );
  }
  throw new LedgerSourceError(
    { kind: "bad_request", detail: body?.detail ?? res.statusText },
    res.status,
  );
}
