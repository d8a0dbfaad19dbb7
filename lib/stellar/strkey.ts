/**
 * StrKey checks without the Stellar base library (about 100 ms to load): `lib/config.ts` runs
 * in `server.ts` before anything starts and on every route's first request, and checks one
 * secret seed (docs/decisions.md, Cold start). Same rule as the library's
 * `StrKey.isValidEd25519SecretSeed`: 56 base32 characters (RFC 4648, upper case) that decode to
 * the seed version byte (18 << 3, `S`), a 32-byte key and its CRC16-XModem checksum, little
 * endian; `strkey.test.ts` compares the two.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const SEED_VERSION = 18 << 3;

function base32Decode(s: string): Uint8Array {
  const out = new Uint8Array(Math.floor((s.length * 5) / 8));
  let bits = 0;
  let value = 0;
  let i = 0;
  for (const ch of s) {
    value = (value << 5) | ALPHABET.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      out[i++] = (value >>> (bits - 8)) & 0xff;
      bits -= 8;
    }
  }
  return out;
}

/** CRC16-XModem (polynomial 0x1021, initial 0), as StrKey checksums. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let k = 0; k < 8; k++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** True when `value` is a Stellar secret seed (S...), checksum included. */
export function isSecretSeed(value: unknown): value is string {
  // 56 characters are 280 bits, 35 whole bytes: every such string is canonical base32.
  if (typeof value !== "string" || !/^[A-Z2-7]{56}$/.test(value)) return false;
  const bytes = base32Decode(value);
  if (bytes[0] !== SEED_VERSION) return false;
  const sum = crc16(bytes.subarray(0, 33));
  return bytes[33] === (sum & 0xff) && bytes[34] === sum >> 8;
}
