import { createHmac, timingSafeEqual } from "node:crypto";
import { isId } from "@/lib/ids";

// Signed links (docs/decisions.md, Reminders and receipts; Checkout documents): `<id>.<mac>`,
// the mac an HMAC-SHA256 of `<purpose>:<id>` under JWT_SECRET (the server secret sessions are
// signed with; the purpose keeps the uses apart: an unsubscribe token opens no document). No
// expiry: a link in an old email or a saved page still works.

const mac = (secret: string, purpose: string, id: string) =>
  createHmac("sha256", secret).update(`${purpose}:${id}`).digest("base64url");

/** `<id>.<mac>` for `purpose` (e.g. "unsubscribe:v1"). */
export const signId = (secret: string, purpose: string, id: string) =>
  `${id}.${mac(secret, purpose, id)}`;

/** The id a token was made for under `purpose`, or null when it is not one of ours. */
export function verifySignedId(secret: string, purpose: string, token: string): string | null {
  const dot = token.indexOf(".");
  if (dot < 0) return null;
  const id = token.slice(0, dot);
  if (!isId(id)) return null;
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(mac(secret, purpose, id));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
