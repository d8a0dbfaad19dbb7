import { z } from "zod";

export const walletAddressSchema = z
  .string()
  .regex(/^G[A-Z2-7]{55}$/, "Invalid Stellar address")
  .describe("Stellar account id (G..., 56 chars, valid ed25519 checksum)");

export const nonceRequestSchema = z.object({ walletAddress: walletAddressSchema });

export const nonceResponseSchema = z.object({
  nonce: z.string().regex(/^[0-9a-f]{32}$/),
  message: z.string(),
  expiresIn: z.number().int(),
});

export const sessionRequestSchema = z.object({
  walletAddress: z.string().min(1),
  nonce: z.string().regex(/^[0-9a-f]{32}$/, "must be 32 lowercase hex characters"),
  signature: z.string().min(1).max(200).describe("ed25519 signature, hex or base64"),
});

export const sessionResponseSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  walletAddress: z.string(),
});
