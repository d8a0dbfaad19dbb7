import { Keypair } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { decodeSignature, isValidWalletAddress, verifyMessageSignature } from "./keys";

describe("SEP-53 message signatures", () => {
  // Test vector from SEP-53.
  const seed = "SAKICEVQLYWGSOJS4WW7HZJWAHZVEEBS527LHK5V4MLJALYKICQCJXMW";
  const message = "Hello, World!";
  const signature =
    "fO5dbYhXUhBMhe6kId/cuVq/AfEnHRHEvsP8vXh03M1uLpi5e46yO2Q8rEBzu3feXQewcQE5GArp88u6ePK6BA==";
  const wallet = Keypair.fromSecret(seed).publicKey();

  it("verifies the SEP-53 test vector (base64)", () => {
    expect(verifyMessageSignature(wallet, message, signature)).toBe(true);
  });

  it("verifies the same signature in hex", () => {
    const hex = Buffer.from(signature, "base64").toString("hex");
    expect(verifyMessageSignature(wallet, message, hex)).toBe(true);
  });

  it("rejects the vector for another message or another key", () => {
    expect(verifyMessageSignature(wallet, "Hello, World?", signature)).toBe(false);
    expect(verifyMessageSignature(Keypair.random().publicKey(), message, signature)).toBe(false);
  });

  it("accepts a signature over the raw message bytes", () => {
    const kp = Keypair.random();
    const raw = kp.sign(Buffer.from(message, "utf8")).toString("hex");
    expect(verifyMessageSignature(kp.publicKey(), message, raw)).toBe(true);
  });
});

describe("wallet addresses", () => {
  it("accepts a real ed25519 public key", () => {
    expect(isValidWalletAddress(Keypair.random().publicKey())).toBe(true);
  });

  it("rejects an address that matches the pattern but fails the checksum", () => {
    const good = Keypair.random().publicKey();
    const last = good.at(-1) === "A" ? "B" : "A";
    const bad = good.slice(0, -1) + last;
    expect(/^G[A-Z2-7]{55}$/.test(bad)).toBe(true);
    expect(isValidWalletAddress(bad)).toBe(false);
  });

  it("rejects secret seeds, muxed accounts and junk", () => {
    expect(isValidWalletAddress(Keypair.random().secret())).toBe(false);
    expect(isValidWalletAddress("GBAD")).toBe(false);
    expect(isValidWalletAddress(42)).toBe(false);
  });
});

describe("signature encodings", () => {
  it("decodes hex and base64, rejects other lengths", () => {
    const bytes = Buffer.alloc(64, 7);
    expect(decodeSignature(bytes.toString("hex"))?.equals(bytes)).toBe(true);
    expect(decodeSignature(bytes.toString("base64"))?.equals(bytes)).toBe(true);
    expect(decodeSignature(bytes.toString("base64url"))?.equals(bytes)).toBe(true);
    expect(decodeSignature("abcd")).toBeNull();
    expect(decodeSignature(Buffer.alloc(32).toString("hex"))).toBeNull();
  });
});
