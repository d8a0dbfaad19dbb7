import { randomBytes } from "node:crypto";
import { Keypair, StrKey } from "@stellar/stellar-base";
import { describe, expect, it } from "vitest";
import { isSecretSeed } from "./strkey";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

describe("isSecretSeed agrees with the Stellar base library's StrKey", () => {
  it("accepts every real seed and refuses each one with a character changed", () => {
    for (let n = 0; n < 200; n++) {
      const seed = Keypair.random().secret();
      expect(isSecretSeed(seed)).toBe(true);
      const at = n % 56;
      const swapped = BASE32[(BASE32.indexOf(seed[at]) + 1 + (n % 31)) % 32];
      const bad = seed.slice(0, at) + swapped + seed.slice(at + 1);
      expect(isSecretSeed(bad)).toBe(StrKey.isValidEd25519SecretSeed(bad));
      expect(isSecretSeed(bad)).toBe(false);
    }
  });

  it("refuses what is not a seed as StrKey does: public keys, lower case, lengths, other types", () => {
    const seed = Keypair.random().secret();
    const cases: unknown[] = [
      Keypair.random().publicKey(),
      seed.toLowerCase(),
      seed.slice(1),
      `${seed}A`,
      `${seed.slice(0, 55)}1`,
      "",
      undefined,
      42,
      StrKey.encodeEd25519PublicKey(randomBytes(32)),
      StrKey.encodeMed25519PublicKey(randomBytes(40)),
    ];
    for (const c of cases) {
      expect(isSecretSeed(c)).toBe(StrKey.isValidEd25519SecretSeed(c as string));
      expect(isSecretSeed(c)).toBe(false);
    }
  });

  it("agrees on random 56-character base32 strings starting with S", () => {
    for (let n = 0; n < 2000; n++) {
      const bytes = randomBytes(55);
      const s = `S${[...bytes].map((b) => BASE32[b & 31]).join("")}`;
      expect(isSecretSeed(s)).toBe(StrKey.isValidEd25519SecretSeed(s));
    }
    // Seeds built from random keys, checksum right: both accept.
    for (let n = 0; n < 200; n++) {
      const s = StrKey.encodeEd25519SecretSeed(randomBytes(32));
      expect(isSecretSeed(s)).toBe(true);
    }
  });
});
