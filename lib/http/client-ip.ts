/**
 * The client address used to key IP limits.
 * - TRUST_PROXY on (Vercel, nginx): the address the trusted proxy appended last to
 *   X-Forwarded-For (Vercel overwrites the header with the client address), or X-Real-IP.
 * - TRUST_PROXY off: `x-client-ip`, which our own server (server.ts) sets from the socket
 *   after discarding whatever the client sent, so the header cannot be spoofed.
 */
export function clientIp(headers: Headers, trustProxy: boolean): string {
  if (trustProxy) {
    const xff = headers.get("x-forwarded-for");
    const last = xff
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .pop();
    return normalize(last ?? headers.get("x-real-ip") ?? "unknown");
  }
  return normalize(headers.get("x-client-ip") ?? headers.get("x-forwarded-for") ?? "unknown");
}

function normalize(ip: string): string {
  const v = ip.trim().toLowerCase();
  return v.startsWith("::ffff:") ? v.slice(7) : v;
}
