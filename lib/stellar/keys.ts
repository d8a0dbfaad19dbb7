import { createHash } from "node:crypto";
import { Keypair, StrKey } from "@stellar/stellar-base";

/** A wallet address is valid only if it decodes to an ed25519 public key (checksum included). */
export function isValidWalletAddress(value: unknown): value is string {
  return typeof value === "string" && StrKey.isValidEd25519PublicKey(value);
}

const SEP53_PREFIX = "Stellar Signed Message:\n";

/** SEP-53: the signed payload is sha256("Stellar Signed Message:\n" + message). */
export function sep53Digest(message: string): Buffer {
  return createHash("sha256")
    .update(Buffer.concat([Buffer.from(SEP53_PREFIX, "utf8"), Buffer.from(message, "utf8")]))
    .digest();
}

/** Hex (128 chars) or base64 (standard or url-safe) encodings of a 64-byte ed25519 signature. */
export function decodeSignature(signature: string): Buffer | null {
  const s = signature.trim();
  if (/^[0-9a-fA-F]{128}$/.test(s)) return Buffer.from(s, "hex");
  if (/^[A-Za-z0-9+/_-]{86}(==)?$/.test(s)) {
    const bytes = Buffer.from(s.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    return bytes.length === 64 ? bytes : null;
  }
  return null;
}

/**
 * True when `signature` is the wallet's ed25519 signature of the message bytes, or of the
 * SEP-53 digest of the message (what Freighter's signMessage produces).
 */
export function verifyMessageSignature(
  walletAddress: string,
  message: string,
  signature: string,
): boolean {
  if (!isValidWalletAddress(walletAddress)) return false;
  const sig = decodeSignature(signature);
  if (!sig) return false;
  const keypair = Keypair.fromPublicKey(walletAddress);
  try {
    return (
      keypair.verify(Buffer.from(message, "utf8"), sig) || keypair.verify(sep53Digest(message), sig)
    );
  } catch {
    return false;
  }
}
