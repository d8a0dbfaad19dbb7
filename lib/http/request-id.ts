import { randomUUID } from "node:crypto";

/**
 * The request id a response carries (`X-Request-Id`, docs/decisions.md): the caller's own when
 * it is sane (8 to 128 of letters, digits, `_ . : -`), else a new UUID. Kept free of the
 * pipeline's imports so server.ts and the routes outside the pipeline echo it the same way.
 */
export function requestIdOf(incoming: string | null | undefined): string {
  return incoming && /^[\w.:-]{8,128}$/.test(incoming) ? incoming : randomUUID();
}
