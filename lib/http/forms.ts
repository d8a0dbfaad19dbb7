import type { ErrorPayload } from "./errors";

/**
 * The two wire forms (decisions.md): Form B (default) is the bare payload; Form A
 * (`?envelope=true`) is `{success, data}` with Form A shapes. Picked here and nowhere else.
 */
export type WireForm = "A" | "B";

export function pickForm(url: URL): WireForm {
  return url.searchParams.get("envelope") === "true" ? "A" : "B";
}

/** Each resource supplies one serializer per form. */
export type Serializer<T> = { a: (value: T) => unknown; b: (value: T) => unknown };

/** For payloads that are the same in both forms (auth, health). */
export function sameInBothForms<T>(): Serializer<T> {
  return { a: (v) => v, b: (v) => v };
}

export function successBody<T>(form: WireForm, value: T, serializer: Serializer<T>): unknown {
  return form === "A" ? { success: true, data: serializer.a(value) } : serializer.b(value);
}

export function errorBody(form: WireForm, e: ErrorPayload): unknown {
  const extra = {
    ...(e.details ? { details: e.details } : {}),
    ...(e.retryAfter !== undefined ? { retryAfter: e.retryAfter } : {}),
  };
  return form === "A"
    ? { success: false, error: { code: e.code, message: e.message, ...extra } }
    : { error: e.message, code: e.code, ...extra };
}

/** Page size when `limit` is absent: 20 in Form A, 50 in Form B (spec 4.2). */
export function defaultPageSize(form: WireForm): number {
  return form === "A" ? 20 : 50;
}

/** Query string as a plain object for zod (the last value of a repeated key wins). */
export function queryObject(query: URLSearchParams): Record<string, string> {
  return Object.fromEntries(query.entries());
}
