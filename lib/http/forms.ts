import type { ErrorBodyA, ErrorBodyB, WireShape } from "@/lib/schemas/wire";
import type { z } from "@/lib/zod";
import type { ErrorPayload } from "./errors";

/**
 * The two wire forms (docs/decisions.md): Form B (default) is the bare payload; Form A
 * (`?envelope=true`) is `{success, data}` with Form A shapes. Picked here and nowhere else.
 */
export type WireForm = "A" | "B";

export function pickForm(url: URL): WireForm {
  return url.searchParams.get("envelope") === "true" ? "A" : "B";
}

/** What a serializer may read besides the value: the deployment's URL and the request's clock. */
export type WireContext = { appUrl: string; now: Date };

/**
 * Both forms of one response, typed by its schema (lib/schemas): a field missing from, or
 * extra to, the schema does not compile. `shape` is what the OpenAPI document shows.
 */
export type Serializer<T, W extends WireShape = WireShape> = {
  shape: W;
  b: (value: T, context: WireContext) => z.output<W["b"]>;
  a: (value: T, context: WireContext) => z.output<W["a"]>;
};

// biome-ignore lint/suspicious/noExplicitAny: any value; each handler is typed by its own
export type AnySerializer = Serializer<any, WireShape>;

export function serializer<T, W extends WireShape>(
  shape: W,
  forms: Omit<Serializer<T, W>, "shape">,
): Serializer<T, W> {
  return { shape, ...forms };
}

/** For responses whose payload is the same in both forms. */
export function sameInBothForms<T, S extends z.ZodType>(
  shape: WireShape<S, S>,
  body: (value: T, context: WireContext) => z.output<S>,
): Serializer<T, WireShape<S, S>> {
  return { shape, a: body, b: body };
}

/** For values that already are the body (auth, cron): typed by the schema, sent as they are. */
export function asIs<S extends z.ZodType>(
  shape: WireShape<S, S>,
): Serializer<z.output<S>, WireShape<S, S>> {
  return sameInBothForms(shape, (v: z.output<S>) => v);
}

export function successBody<T>(
  form: WireForm,
  value: T,
  serializer: Serializer<T>,
  context: WireContext,
): unknown {
  return form === "A"
    ? { success: true, data: serializer.a(value, context) }
    : serializer.b(value, context);
}

export function errorBody(form: WireForm, e: ErrorPayload): ErrorBodyA | ErrorBodyB {
  const extra = {
    ...(e.details ? { details: e.details } : {}),
    ...(e.retryAfter !== undefined ? { retryAfter: e.retryAfter } : {}),
  };
  return form === "A"
    ? { success: false, error: { code: e.code, message: e.message, ...extra } }
    : { error: e.message, code: e.code, ...extra };
}

/** Page size when `limit` is absent: 20 in Form A, 50 in Form B (docs/decisions.md). */
export function defaultPageSize(form: WireForm): number {
  return form === "A" ? 20 : 50;
}
