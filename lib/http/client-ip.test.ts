import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { clientIp, recordSocketAddress, UNKNOWN_IP } from "./client-ip";

const off = { trustProxy: false, trustedProxyHeader: "x-forwarded-for" } as const;
const on = (trustedProxyHeader: "x-forwarded-for" | "x-vercel-forwarded-for" | "x-real-ip") =>
  ({ trustProxy: true, trustedProxyHeader }) as const;

/** Headers as server.ts hands them on: the socket address with this process's proof. */
function throughServer(socket: string, extra: Record<string, string> = {}): Headers {
  const raw: Record<string, string | string[] | undefined> = { ...extra };
  recordSocketAddress(raw, socket);
  return new Headers(raw as Record<string, string>);
}

const spoofed = {
  "x-forwarded-for": "1.1.1.1, 2.2.2.2",
  "x-real-ip": "3.3.3.3",
  "x-vercel-forwarded-for": "4.4.4.4",
};

describe("clientIp without TRUST_PROXY: the socket address only", () => {
  it("uses the address server.ts recorded, whatever else the client sent", () => {
    expect(clientIp(throughServer("203.0.113.7", spoofed), off)).toBe("203.0.113.7");
    expect(clientIp(throughServer("::ffff:203.0.113.7"), off)).toBe("203.0.113.7");
    expect(clientIp(throughServer("2001:db8::1"), off)).toBe("2001:db8::1");
  });

  it("ignores a client-sent x-client-ip (a request that did not come through server.ts)", () => {
    recordSocketAddress({}, "127.0.0.1"); // the process has a proof; the client does not know it
    const headers = new Headers({ "x-client-ip": "198.51.100.1", ...spoofed });
    expect(clientIp(headers, off)).toBe(UNKNOWN_IP);
    const guessed = new Headers({ "x-client-ip": "198.51.100.1", "x-client-ip-proof": "guess" });
    expect(clientIp(guessed, off)).toBe(UNKNOWN_IP);
  });
});

describe("clientIp with TRUST_PROXY: the header TRUSTED_PROXY_HEADER names", () => {
  it("x-forwarded-for: the right-most entry (the one the proxy appended)", () => {
    const headers = throughServer("10.0.0.2", { "x-forwarded-for": "6.6.6.6, 203.0.113.9" });
    expect(clientIp(headers, on("x-forwarded-for"))).toBe("203.0.113.9");
    // X-Real-IP does not win over the configured header.
    const both = throughServer("10.0.0.2", {
      "x-forwarded-for": "203.0.113.9",
      "x-real-ip": "6.6.6.6",
    });
    expect(clientIp(both, on("x-forwarded-for"))).toBe("203.0.113.9");
  });

  it("x-real-ip and x-vercel-forwarded-for: only that header counts", () => {
    const headers = throughServer("10.0.0.2", spoofed);
    expect(clientIp(headers, on("x-real-ip"))).toBe("3.3.3.3");
    expect(clientIp(headers, on("x-vercel-forwarded-for"))).toBe("4.4.4.4");
  });

  it("without the header, the socket address; a value that is not an address is unknown", () => {
    expect(clientIp(throughServer("10.0.0.2"), on("x-real-ip"))).toBe("10.0.0.2");
    expect(clientIp(new Headers({ "x-real-ip": "not-an-ip" }), on("x-real-ip"))).toBe(UNKNOWN_IP);
    expect(clientIp(new Headers({}), on("x-forwarded-for"))).toBe(UNKNOWN_IP);
  });
});

describe("TRUSTED_PROXY_HEADER", () => {
  it("defaults to x-forwarded-for, accepts the three headers in any case, refuses others", () => {
    const base = { DATA_DIR: "/tmp/k1-config-test", JWT_SECRET: "x".repeat(32) };
    expect(parseConfig(base).trustedProxyHeader).toBe("x-forwarded-for");
    expect(parseConfig({ ...base, TRUSTED_PROXY_HEADER: "X-Real-IP" }).trustedProxyHeader).toBe(
      "x-real-ip",
    );
    expect(
      parseConfig({ ...base, TRUSTED_PROXY_HEADER: "x-vercel-forwarded-for" }).trustedProxyHeader,
    ).toBe("x-vercel-forwarded-for");
    expect(() => parseConfig({ ...base, TRUSTED_PROXY_HEADER: "x-client-ip" })).toThrow(
      /TRUSTED_PROXY_HEADER/,
    );
  });
});
