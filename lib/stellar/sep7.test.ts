import { describe, expect, it } from "vitest";
import { buildSep7PayUri, parseSep7PayUri } from "./sep7";

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
