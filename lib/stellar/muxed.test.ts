import { MuxedAccount as SdkMuxed, StrKey } from "@stellar/stellar-base";
import { describe, expect, it } from "vitest";
import { isContractAddress, isMuxedId, mayNameInvoice, paysMuxed } from "@/lib/domain/muxed";
import { destinationOf, muxedAddress, splitAddress } from "./muxed";

const G = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";
const C = StrKey.encodeContract(Buffer.alloc(32, 7));

describe("muxed addresses", () => {
  it("an invoice's M address is its wallet with its id, both ways, up to 2^63-1", () => {
    for (const id of ["1", "4611686018427387904", "9223372036854775807"]) {
      const m = muxedAddress(G, id);
      expect(StrKey.isValidMed25519PublicKey(m)).toBe(true);
      const sdk = SdkMuxed.fromAddress(m, "0");
      expect([sdk.baseAccount().accountId(), sdk.id()]).toEqual([G, id]);
      expect(splitAddress(m)).toEqual({ account: G, muxedId: id });
    }
    expect(splitAddress(G)).toEqual({ account: G, muxedId: null });
    expect(splitAddress(C)).toBeNull();
  });

  it("an operation's destination as sent: the M address when its id is known", () => {
    expect(destinationOf({ to: G, toMuxedId: "42" })).toBe(muxedAddress(G, "42"));
    expect(destinationOf({ to: G })).toBe(G);
    expect(destinationOf({ to: C, toMuxedId: "42" })).toBe(C);
  });

  it("who is asked to pay the muxed address: every payer when on, a contract payer always", () => {
    expect(paysMuxed({ muxedDestinations: false, sender: G })).toBe(false);
    expect(paysMuxed({ muxedDestinations: false })).toBe(false);
    expect(paysMuxed({ muxedDestinations: false, sender: C })).toBe(true);
    expect(paysMuxed({ muxedDestinations: true, sender: G })).toBe(true);
    expect(isContractAddress(C)).toBe(true);
    expect(isContractAddress(G)).toBe(false);
  });

  it("muxed ids are decimal uint64", () => {
    expect(isMuxedId("18446744073709551615")).toBe(true);
    expect(isMuxedId("18446744073709551616")).toBe(false);
    expect(isMuxedId("01")).toBe(false);
    expect(isMuxedId("-1")).toBe(false);
    // Only 1..2^63-1 can be an invoice's (a signed bigint column): others are never looked up.
    expect(mayNameInvoice("9223372036854775807")).toBe(true);
    expect(mayNameInvoice("9223372036854775808")).toBe(false);
    expect(mayNameInvoice("0")).toBe(false);
    expect(mayNameInvoice("INV-0001")).toBe(false);
  });
});
