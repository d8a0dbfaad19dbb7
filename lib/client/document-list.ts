// The document lists' query logic (components/documents/document-list.tsx): the API path with
// its filters, the search kept in the page's URL (`?q=`), and the search box's debounce. Pure,
// so it is tested without a browser (lib/client/document-list.test.ts).

/** How long the search box waits after the last keystroke before it asks again. */
export const SEARCH_DEBOUNCE_MS = 250;

/** A list endpoint with its filters: empty ones left out, each value trimmed. */
export function listPath(endpoint: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    const v = value?.trim();
    if (v) query.set(key, v);
  }
  const search = query.toString();
  return search ? `${endpoint}?${search}` : endpoint;
}

/** The search a page's URL carries (`?q=`), "" when none. */
export function searchOf(urlSearch: string): string {
  return new URLSearchParams(urlSearch).get("q") ?? "";
}

/**
 * The page's URL with its search set to `q` (trimmed; removed when blank), the other
 * parameters and the fragment kept: what the list writes back with history.replaceState.
 */
export function urlWithSearch(
  location: { pathname: string; search: string; hash?: string },
  q: string,
): string {
  const params = new URLSearchParams(location.search);
  const value = q.trim();
  if (value) params.set("q", value);
  else params.delete("q");
  const search = params.toString();
  return `${location.pathname}${search ? `?${search}` : ""}${location.hash ?? ""}`;
}

export type Debounced<T> = {
  /** Takes a value; `run` gets the last one once `ms` pass without another. */
  push(value: T): void;
  /** Runs now with the pending value, if any (Enter in the box). */
  flush(): void;
  /** Drops the pending value (the box cleared, the page left). */
  cancel(): void;
};

/** `run` with the last value pushed, once `ms` milliseconds pass without a new one. */
export function debounce<T>(run: (value: T) => void, ms: number): Debounced<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: { value: T } | undefined;
  const fire = () => {
    timer = undefined;
    if (!pending) return;
    const { value } = pending;
    pending = undefined;
    run(value);
  };
  return {
    push(value) {
      pending = { value };
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(fire, ms);
    },
    flush() {
      if (timer !== undefined) clearTimeout(timer);
      fire();
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    },
  };
}

/**
 * The pager's words for a page of a list: "21–40 of 95", or "1–20 of more than 1,000" when
 * the total is a bound (`totalExact` false: a broad search, docs/decisions.md, Search).
 */
export function pageRange(page: {
  offset: number;
  count: number;
  total: number;
  totalExact?: boolean;
}): string {
  const first = page.total > 0 ? page.offset + 1 : 0;
  const total =
    page.totalExact === false ? `more than ${page.total.toLocaleString("en-US")}` : page.total;
  return `${first}–${page.offset + page.count} of ${total}`;
}
