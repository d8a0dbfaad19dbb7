"use client";

import { useCallback, useEffect, useState } from "react";
import { errorMessage, useApi } from "@/lib/client/session";

/** A window coming back into focus refetches at most this often. */
const FOCUS_REFRESH_MS = 2000;

/**
 * GETs `path` with the session token; `reload()` asks again. `null` fetches nothing. `api` is
 * the same authenticated client, for the page's other requests. `refreshOnFocus`: the window
 * (or tab) coming back asks again quietly (no loading state, an error keeps what is shown),
 * so a list left open shows payments that arrived meanwhile.
 */
export function useResource<T>(
  path: string | null,
  { refreshOnFocus = false }: { refreshOnFocus?: boolean } = {},
) {
  const api = useApi();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const [tick, setTick] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: tick forces a refetch
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    api<T>(path, { signal: controller.signal })
      .then((value) => {
        if (!controller.signal.aborted) setData(value);
      })
      .catch((err) => {
        if (!controller.signal.aborted) setError(errorMessage(err));
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [api, path, tick]);

  useEffect(() => {
    if (path === null || !refreshOnFocus) return;
    let last = Date.now();
    const controller = new AbortController();
    const refresh = () => {
      if (document.visibilityState === "hidden" || Date.now() - last < FOCUS_REFRESH_MS) return;
      last = Date.now();
      api<T>(path, { signal: controller.signal })
        .then((value) => {
          if (!controller.signal.aborted) setData(value);
        })
        .catch(() => undefined);
    };
    window.addEventListener("focus", refresh);
    document.addEventListener("visibilitychange", refresh);
    return () => {
      controller.abort();
      window.removeEventListener("focus", refresh);
      document.removeEventListener("visibilitychange", refresh);
    };
  }, [api, path, refreshOnFocus]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, setData, error, loading, reload, api };
}

/** A page of a list endpoint (`limit`/`offset` in the query, these fields in the body). */
type PageFields = { offset: number; total: number; hasMore: boolean; totalExact?: boolean };

/**
 * useResource over a paged list: `size` items from `offset` (back to 0 whenever `path`
 * changes). `pager` holds the Pager's props (components/ui/table.tsx) once a page is in. A
 * list refetches when the window comes back into focus.
 */
export function usePagedResource<T extends PageFields>(
  path: string | null,
  size: number,
  items: (page: T) => readonly unknown[],
) {
  const [offset, setOffset] = useState(0);
  const [base, setBase] = useState(path);
  if (base !== path) {
    setBase(path);
    setOffset(0);
  }
  const sep = path?.includes("?") ? "&" : "?";
  const resource = useResource<T>(path && `${path}${sep}limit=${size}&offset=${offset}`, {
    refreshOnFocus: true,
  });
  const { data, loading } = resource;
  const pager = data && {
    page: {
      offset: data.offset,
      total: data.total,
      // A broad search's total is a bound (docs/decisions.md, Search, "Broad searches").
      totalExact: data.totalExact ?? true,
      hasMore: data.hasMore,
      count: items(data).length,
    },
    size,
    loading,
    onOffset: setOffset,
  };
  return { ...resource, pager };
}
