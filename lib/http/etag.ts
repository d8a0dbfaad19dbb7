import { createHash } from "node:crypto";

/**
 * The entity tag of a JSON body: a hash of its bytes, weak because the front may compress it.
 * The same body always gets the same tag, on every instance.
 */
export function etagOf(body: string): string {
  return `W/"${createHash("sha1").update(body).digest("base64url")}"`;
}

/** `If-None-Match` (a list of tags, or `*`) names `etag`, compared weakly (RFC 9110 13.1.2). */
export function noneMatchHits(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  const wanted = opaque(etag);
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === wanted);
}
