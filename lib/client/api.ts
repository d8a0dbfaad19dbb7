/** Browser-side JSON client for the service's own API (Form B). */

export const UNREACHABLE = "The service could not be reached. Check your connection and try again.";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
  }
}

export async function api<T>(
  path: string,
  opts: { method?: string; body?: unknown; token?: string | null; signal?: AbortSignal } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let res: Response;
  try {
    res = await fetch(path, {
      method: opts.method ?? "GET",
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
      cache: "no-store",
    });
  } catch {
    throw new ApiError(UNREACHABLE, 0, null);
  }
  const body = (await res.json().catch(() => null)) as { error?: string } | null;
  if (!res.ok)
    throw new ApiError(body?.error ?? `Request failed (${res.status})`, res.status, body);
  return body as T;
}

/** The per-field messages of a 400 (`details`), keyed like `lineItems.0.rate`; else none. */
export function errorDetails(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  return (err.body as { details?: Record<string, string> } | null)?.details ?? {};
}
