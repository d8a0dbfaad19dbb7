import { describe, expect, it } from "vitest";
import {
  assertPublicWebhookUrl,
  classifyAddress,
  type Resolver,
  WEBHOOK_URL_NO_DNS,
  WEBHOOK_URL_NOT_HTTPS,
  WEBHOOK_URL_PRIVATE,
  WEBHOOK_URL_REFUSED,
  WebhookUrlError,
} from "./ssrf";

const REFUSALS = [
  WEBHOOK_URL_REFUSED,
  WEBHOOK_URL_NOT_HTTPS,
  WEBHOOK_URL_NO_DNS,
  WEBHOOK_URL_PRIVATE,
];

const resolverOf =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = table[host];
    if (!found)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

async function refusal(url: string, opts: { allowLoopback?: boolean; resolve?: Resolver } = {}) {
  try {
    await assertPublicWebhookUrl(url, {
      allowLoopback: opts.allowLoopback ?? false,
      resolve: opts.resolve ?? resolverOf({}),
    });
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookUrlError);
    expect(REFUSALS.some((m) => (err as Error).message.startsWith(`${m}: `))).toBe(true);
    return (err as WebhookUrlError).reason;
  }
  throw new Error(`${url} was accepted`);
}

describe("classifyAddress", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["93.184.216.34", "public"],
    ["172.15.255.255", "public"],
    ["172.32.0.0", "public"],
    ["100.63.255.255", "public"],
    ["100.128.0.0", "public"],
    ["169.253.255.255", "public"],
    ["223.255.255.255", "public"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["100.100.100.200", "private"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["169.254.169.254", "link-local"],
    ["169.254.0.1", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "reserved"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.10", "reserved"],
    ["198.18.0.1", "reserved"],
    ["2606:4700:4700::1111", "public"],
    ["2001:4860:4860::8888", "public"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["fe80::1", "link-local"],
    ["febf::1", "link-local"],
    ["fc00::1", "private"],
    ["fd00:ec2::254", "private"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:8.8.8.8", "public"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["64:ff9b::808:808", "public"],
    ["2002:7f00:1::", "loopback"],
    ["2002:0808:0808::1", "public"],
    ["2001:db8::1", "reserved"],
    ["2001:0:4136:e378::1", "reserved"],
    ["100::1", "reserved"],
    ["fe80::1%eth0", "link-local"],
    ["not-an-ip", "invalid"],
    ["1.2.3", "invalid"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

async function refusedWith(
  url: string,
  opts: { allowLoopback?: boolean; resolve?: Resolver } = {},
): Promise<WebhookUrlError> {
  const err = await assertPublicWebhookUrl(url, {
    allowLoopback: opts.allowLoopback ?? false,
    resolve: opts.resolve ?? resolverOf({}),
  }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, url).toBeInstanceOf(WebhookUrlError);
  return err as WebhookUrlError;
}

describe("assertPublicWebhookUrl", () => {
  const publicDns = resolverOf({ "hooks.example.com": ["93.184.216.34", "2606:2800:220:1::1"] });

  it("accepts an https URL whose every address is public, and pins the first", async () => {
    const target = await assertPublicWebhookUrl("https://hooks.example.com/in?x=1", {
      allowLoopback: false,
      resolve: publicDns,
    });
    expect(target.hostname).toBe("hooks.example.com");
    expect(target.address).toEqual({ address: "93.184.216.34", family: 4 });
    expect(target.addresses.map((a) => a.address)).toEqual(["93.184.216.34", "2606:2800:220:1::1"]);
    expect(target.url.pathname).toBe("/in");
  });

  it("accepts a public IP literal without asking DNS", async () => {
    const target = await assertPublicWebhookUrl("https://8.8.8.8/x", {
      allowLoopback: false,
      resolve: async () => {
        throw new Error("must not resolve");
      },
    });
    expect(target.address.address).toBe("8.8.8.8");
  });

  it.each([
    ["http://10.0.0.1/x"],
    ["https://10.0.0.1/x"],
    ["https://169.254.169.254/latest/meta-data"],
    ["https://127.0.0.1/x"],
    ["https://[::1]/x"],
    ["https://[::ffff:127.0.0.1]/x"],
    ["https://[fd00:ec2::254]/x"],
    ["https://0.0.0.0/x"],
    ["https://0x7f.1/x"],
    ["https://2130706433/x"],
    ["https://192.168.0.10:8443/x"],
    // Every loopback spelling of issue 27 (and a few more), without WEBHOOK_ALLOW_LOOPBACK.
    ["https://127.1/x"],
    ["https://127.0.1/x"],
    ["https://0177.0.0.1/x"],
    ["https://017700000001/x"],
    ["https://0x7f000001/x"],
    ["https://127.000.000.001/x"],
    ["https://[::ffff:7f00:1]/x"],
    ["https://[0:0:0:0:0:ffff:127.0.0.1]/x"],
    ["https://[::127.0.0.1]/x"],
    ["https://[64:ff9b::127.0.0.1]/x"],
    ["https://[2002:7f00:1::]/x"],
    ["https://[::]/x"],
    ["https://0/x"],
    ["http://127.1:3000/x"],
    ["http://[::ffff:127.0.0.1]:3000/x"],
  ])("refuses %s", async (url) => {
    await refusal(url);
  });

  it("refuses a name resolving to loopback, private or metadata addresses: the kind, never the address", async () => {
    const dns = resolverOf({
      "loop.example": ["127.0.0.1"],
      "private.example": ["10.0.0.1"],
      "metadata.example": ["169.254.169.254"],
      "mixed.example": ["93.184.216.34", "10.1.2.3"],
      "v6.example": ["::1"],
    });
    const kinds: Record<string, string> = {
      loop: "loopback",
      private: "private",
      metadata: "link-local",
      mixed: "private",
      v6: "loopback",
    };
    for (const [host, kind] of Object.entries(kinds)) {
      const url = `https://${host}.example/x`;
      const err = await refusedWith(url, { resolve: dns });
      expect(err.message, host).toBe(
        `${WEBHOOK_URL_PRIVATE}: ${host}.example resolves to a ${kind} address`,
      );
    }
    // One bad address is enough: the connection could go to any of them.
    expect(await refusal("https://mixed.example/x", { resolve: dns })).not.toMatch(/10\.1\.2\.3/);
  });

  it("names the cause (issue 28): no DNS answer, a private address, not https", async () => {
    const dns = resolverOf({ "internal.example": ["10.20.30.40"] });
    const empty: Resolver = async () => [];
    const slow: Resolver = async () => {
      throw new Error("DNS lookup timed out");
    };
    expect((await refusedWith("https://nowhere.example/x", { resolve: dns })).message).toBe(
      `${WEBHOOK_URL_NO_DNS}: no DNS answer for nowhere.example`,
    );
    expect((await refusedWith("https://empty.example/x", { resolve: empty })).refusal).toBe(
      "no-dns",
    );
    expect((await refusedWith("https://slow.example/x", { resolve: slow })).reason).toBe(
      "no DNS answer for slow.example",
    );
    expect((await refusedWith("https://internal.example/x", { resolve: dns })).message).toBe(
      `${WEBHOOK_URL_PRIVATE}: internal.example resolves to a private address`,
    );
    expect((await refusedWith("https://10.20.30.40/x", { resolve: dns })).message).toBe(
      `${WEBHOOK_URL_PRIVATE}: 10.20.30.40 is a private address`,
    );
    expect((await refusedWith("http://hooks.example/x", { resolve: dns })).message).toBe(
      `${WEBHOOK_URL_NOT_HTTPS}: the scheme must be https`,
    );
    expect((await refusedWith("not a url")).message).toBe(
      `${WEBHOOK_URL_REFUSED}: not a valid URL`,
    );
  });

  it("refuses http, other schemes, credentials and junk", async () => {
    expect(await refusal("http://hooks.example.com/x", { resolve: publicDns })).toMatch(/https/);
    expect(await refusal("ftp://hooks.example.com/x", { resolve: publicDns })).toMatch(/https/);
    expect(await refusal("file:///etc/passwd")).toMatch(/https/);
    expect(await refusal("https://user:pw@hooks.example.com/x", { resolve: publicDns })).toMatch(
      /credentials/,
    );
    expect(await refusal("not a url")).toMatch(/valid URL/);
  });

  it("with allowLoopback: http only to loopback names or literals, never private ranges", async () => {
    const dns = resolverOf({
      localhost: ["127.0.0.1", "::1"],
      "hooks.example.com": ["93.184.216.34"],
      "sneaky.localhost": ["10.0.0.1"],
    });
    const allow = { allowLoopback: true, resolve: dns };
    expect((await assertPublicWebhookUrl("http://127.0.0.1:8080/x", allow)).address.address).toBe(
      "127.0.0.1",
    );
    expect((await assertPublicWebhookUrl("http://localhost:8080/x", allow)).hostname).toBe(
      "localhost",
    );
    expect((await assertPublicWebhookUrl("http://[::1]:8080/x", allow)).address.family).toBe(6);
    expect(await refusal("http://hooks.example.com/x", allow)).toMatch(/https/);
    expect(await refusal("http://10.0.0.1/x", allow)).toMatch(/https/);
    expect(await refusal("https://10.0.0.1/x", allow)).toBe("10.0.0.1 is a private address");
    expect(await refusal("https://169.254.169.254/latest/meta-data", allow)).toBe(
      "169.254.169.254 is a link-local address",
    );
    expect(await refusal("http://sneaky.localhost/x", allow)).toBe(
      "sneaky.localhost resolves to a private address",
    );
  });

  it("without allowLoopback, localhost is resolved and refused", async () => {
    const dns = resolverOf({ localhost: ["127.0.0.1"] });
    expect(await refusal("https://localhost/x", { resolve: dns })).toBe(
      "localhost resolves to a loopback address",
    );
    expect(await refusal("http://localhost:3000/x", { resolve: dns })).toMatch(/https/);
  });

  it("uses the system resolver by default (localhost from /etc/hosts is refused)", async () => {
    for (const url of [
      "https://localhost/x",
      "https://LocalHost/x",
      "https://localhost./x",
      "https://api.localhost/x",
    ]) {
      // Loopback, or (when the system's resolver knows no `localhost.`) no answer at all.
      await expect(assertPublicWebhookUrl(url, { allowLoopback: false }), url).rejects.toThrow(
        /^Webhook URL (resolves to a private address|host has no DNS answer): /,
      );
    }
  });
});

describe("address order", () => {
  it("puts IPv4 first so a host without IPv6 routes still connects", async () => {
    const dns: Resolver = async () => [
      { address: "2606:2800:220:1::1", family: 6 },
      { address: "93.184.216.34", family: 4 },
    ];
    const target = await assertPublicWebhookUrl("https://dual.example/x", {
      allowLoopback: false,
      resolve: dns,
    });
    expect(target.address.address).toBe("93.184.216.34");
    expect(target.addresses.map((a) => a.family)).toEqual([4, 6]);
  });
});
