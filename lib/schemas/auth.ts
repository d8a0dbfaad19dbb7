import { z } from "@/lib/zod";
import { int, STELLAR_ACCOUNT, timestamp, wallet, wire } from "./wire";

export const walletAddressSchema = z
  .string()
  .regex(STELLAR_ACCOUNT, "Invalid Stellar address")
  .describe("Stellar account id (G..., 56 chars, valid ed25519 checksum)");

export const nonceRequestSchema = z.object({ walletAddress: walletAddressSchema });

export const nonceResponseSchema = z.object({
  nonce: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .meta({ example: "9f86d081884c7d659a2feaa0c55ad015" }),
  message: z.string().meta({ description: "The four lines to sign, joined by a line feed" }),
  expiresIn: int.meta({ description: "Seconds", example: 300 }),
});

export const sessionRequestSchema = z.object({
  walletAddress: z.string().min(1),
  nonce: z.string().regex(/^[0-9a-f]{32}$/, "must be 32 lowercase hex characters"),
  signature: z.string().min(1).max(200).describe("ed25519 signature, hex or base64"),
});

export const sessionResponseSchema = z.object({
  token: z.string().meta({ description: "HS256 JWT, valid one hour" }),
  expiresAt: timestamp,
  walletAddress: wallet,
});

// ---- responses (the same in both forms) ----------------------------------------------------

export const nonceResponse = wire("NonceResponse", nonceResponseSchema);
export const sessionResponse = wire("SessionResponse", sessionResponseSchema);
export const whoAmIResponse = wire("WhoAmI", z.object({ walletAddress: wallet }));
