import { Keypair } from "@stellar/stellar-sdk";
import { parseSep7Uri, Keypair as SdkKeypair, Sep7Pay } from "@stellar/typescript-wallet-sdk";
import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { buildSep7PayUri, parseSep7PayUri, sep7Signer, signSep7Uri, stellarToml } from "./sep7";

const destination = "GDQNY3PBOJOKYZSRMK2S7LHHGWZIUISD4QORETLMXEWXBI7KFZZMKTL3";
const issuer = "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5";

describe("SEP-7 pay URIs", () => {
  it("carries every parameter, URL-encoded, with the testnet passphrase", () => {
    const uri = buildSep7PayUri({
      destination,
      amount: "1050.5",
      asset: { code: "USDC", issuer },
      memo: "INV-0042",
      networkPassphrase: "Test SDF Network ; September 2015",
    });
    expect(uri).toBe(
      `web+stellar:pay?destination=${destination}&amount=1050.5&asset_code=USDC&asset_issuer=${issuer}&memo=INV-0042&memo_type=MEMO_TEXT&network_passphrase=Test%20SDF%20Network%20%3B%20September%202015`,
    );
    expect(parseSep7PayUri(uri)).toEqual({
      destination,
      amount: "1050.5",
      asset_code: "USDC",
      asset_issuer: issuer,
      memo: "INV-0042",
      memo_type: "MEMO_TEXT",
      network_passphrase: "Test SDF Network ; September 2015",
    });
  });

  it("leaves out the issuer for XLM and the passphrase for the public network", () => {
    const uri = buildSep7PayUri({
      destination,
      amount: "3",
      asset: { code: "XLM", issuer: null },
      memo: "INV-1",
      networkPassphrase: "Public Global Stellar Network ; September 2015",
    });
    const params = parseSep7PayUri(uri);
    expect(params.asset_issuer).toBeUndefined();
    expect(params.network_passphrase).toBeUndefined();
    expect(params.asset_code).toBe("XLM");
  });
});

/** What a wallet verifies (SEP-7 Request Signing), computed by the wallet SDK, not by sep7.ts. */
function walletSdkVerifies(uri: string, publicKey: string): boolean {
  let parsed: ReturnType<typeof parseSep7Uri>;
  try {
    parsed = parseSep7Uri(uri);
  } catch {
    return false; // not a valid SEP-7 request at all (say, no destination)
  }
  if (!parsed.signature) return false;
  // verifySignature() is: fetch URI_REQUEST_SIGNING_KEY from https://origin_domain, then this
  // check over the SDK's payload (tests/sep7.test.ts runs the whole of it over HTTPS).
  const payload = (
    parsed as unknown as { createSignaturePayload(): Buffer }
  ).createSignaturePayload();
  return Keypair.fromPublicKey(publicKey).verify(payload, Buffer.from(parsed.signature, "base64"));
}

describe("SEP-7 request signing", () => {
  const signingKey = Keypair.random();
  const signer = sep7Signer({
    appUrl: "https://pay.example.com",
    sep7SigningSecret: signingKey.secret(),
  });
  const build = (memo = "INV-0042 café ; é/+") =>
    buildSep7PayUri({
      destination,
      amount: "1050.5",
      asset: { code: "USDC", issuer },
      memo,
      networkPassphrase: "Test SDF Network ; September 2015",
      signer,
    });

  it("signs the SEP-7 example exactly as the SEP does", () => {
    // SEP-0007, Request Signing, Example: this key signs this request into this signature.
    const request =
      "web+stellar:pay?destination=GCALNQQBXAPZ2WIRSDDBMSTAKCUH5SG6U76YBFLQLIXJTF7FE5AX7AOO&amount=120.1234567&memo=skdjfasf&msg=pay%20me%20with%20lumens&origin_domain=someDomain.com";
    const key = Keypair.fromSecret("SBPOVRVKTTV7W3IOX2FJPSMPCJ5L2WU2YKTP3HCLYPXNI5MDIGREVNYC");
    expect(signSep7Uri(request, key)).toBe(
      `${request}&signature=JTlGMGzxUv90P2SWxUY9xo%2BLlbXaDloend6gkpyylY8X4bUNf6%2F9mFTMJs7JKqSDPRtejlK1kQvrsJfRZSJeAQ%3D%3D`,
    );
  });

  it("adds origin_domain (APP_URL's host) and, last, a signature the wallet SDK verifies", () => {
    const uri = build();
    const parsed = parseSep7Uri(uri);
    expect(parsed.originDomain).toBe("pay.example.com");
    expect(uri).toMatch(/&origin_domain=pay\.example\.com&signature=[^&]+$/);
    expect(walletSdkVerifies(uri, signingKey.publicKey())).toBe(true);
    // Deterministic ed25519: the SDK signing the unsigned request gives the same signature.
    const unsigned = new Sep7Pay(uri.replace(/&signature=.*$/, ""));
    expect(unsigned.addSignature(SdkKeypair.fromSecret(signingKey.secret()))).toBe(
      parsed.signature,
    );
  });

  it("fails with another key", () => {
    expect(walletSdkVerifies(build(), Keypair.random().publicKey())).toBe(false);
  });

  it("fails when any parameter is changed, added or dropped", () => {
    const uri = build();
    const [head, signature] = uri.split("&signature=");
    const query = head.slice("web+stellar:pay?".length).split("&");
    const resign = (q: string[]) => `web+stellar:pay?${q.join("&")}&signature=${signature}`;
    expect(walletSdkVerifies(resign(query), signingKey.publicKey())).toBe(true);
    for (let i = 0; i < query.length; i++) {
      const changed = [...query];
      changed[i] = changed[i].startsWith("destination=")
        ? `destination=${Keypair.random().publicKey()}`
        : `${changed[i]}0`;
      expect(walletSdkVerifies(resign(changed), signingKey.publicKey()), changed[i]).toBe(false);
      expect(
        walletSdkVerifies(resign(query.filter((_, j) => j !== i)), signingKey.publicKey()),
      ).toBe(false);
    }
    expect(walletSdkVerifies(resign([...query, "msg=hi"]), signingKey.publicKey())).toBe(false);
    expect(walletSdkVerifies(build("INV-0043"), signingKey.publicKey())).toBe(true);
  });

  it("keeps our own parser reading every parameter of a signed URI", () => {
    const params = parseSep7PayUri(build());
    expect(params).toMatchObject({
      destination,
      amount: "1050.5",
      memo: "INV-0042 café ; é/+",
      origin_domain: "pay.example.com",
    });
    expect(Buffer.from(params.signature, "base64")).toHaveLength(64);
  });

  it("leaves URIs unsigned without SEP7_SIGNING_SECRET", () => {
    expect(sep7Signer({ appUrl: "https://pay.example.com", sep7SigningSecret: undefined })).toBe(
      undefined,
    );
  });
});

describe("stellar.toml", () => {
  const base = { appUrl: "https://pay.example.com", serviceName: 'Ann "Invoices"' };

  it("publishes URI_REQUEST_SIGNING_KEY only when SEP7_SIGNING_SECRET is set", () => {
    const kp = Keypair.random();
    expect(stellarToml({ ...base, sep7SigningSecret: kp.secret() })).toBe(
      [
        'VERSION = "2.7.0"',
        "",
        `URI_REQUEST_SIGNING_KEY = "${kp.publicKey()}"`,
        "",
        "[DOCUMENTATION]",
        'ORG_NAME = "Ann \\"Invoices\\""',
        'ORG_URL = "https://pay.example.com"',
        "",
      ].join("\n"),
    );
    const unsigned = stellarToml({ ...base, sep7SigningSecret: undefined });
    expect(unsigned).not.toContain("SIGNING_KEY");
    expect(unsigned).toContain("[DOCUMENTATION]");
  });
});

describe("SEP7_SIGNING_SECRET", () => {
  const env = { JWT_SECRET: "s".repeat(40), DATA_DIR: "/tmp/sep7-config-test" };

  it("accepts a secret seed and rejects anything else with the variable named", () => {
    const secret = Keypair.random().secret();
    expect(parseConfig({ ...env, SEP7_SIGNING_SECRET: secret }).sep7SigningSecret).toBe(secret);
    expect(parseConfig(env).sep7SigningSecret).toBeUndefined();
    // The last character changed (to another one: a seed ending in A would stay valid).
    const mangled = `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
    for (const bad of [Keypair.random().publicKey(), mangled, "secret"]) {
      expect(() => parseConfig({ ...env, SEP7_SIGNING_SECRET: bad })).toThrow(
        /SEP7_SIGNING_SECRET: must be a Stellar secret seed \(S\.\.\.\)/,
      );
    }
  });
});
