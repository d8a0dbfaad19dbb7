import { randomBytes } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import { authNonces } from "@/db/schema";
import { UnauthorizedError, ValidationError } from "@/lib/domain/errors";
import { isValidWalletAddress, verifyMessageSignature } from "@/lib/stellar/keys";
import type { ServiceContext } from "../context";
import { INVALID_SIGNATURE } from "./messages";

export const NONCE_TTL_SECONDS = 300;
export const INVALID_ADDRESS = "Invalid Stellar address";

/**
 * The five lines of the sign-in message (docs/decisions.md "Authentication"), joined by a
 * line feed: the spec's four lines in the spec's order, then `URI` fifth (it names the site
 * that asks, so the wallet shows it to its user; a client reading the lines by position
 * finds the spec's four where the spec puts them).
 */
export function buildSignInMessage(opts: {
  serviceName: string;
  appUrl: string;
  wallet: string;
  nonce: string;
  timestamp: Date;
}): string {
  return [
    `${opts.serviceName} Authentication`,
    `Wallet: ${opts.wallet}`,
    `Nonce: ${opts.nonce}`,
    `Timestamp: ${opts.timestamp.toISOString()}`,
    `URI: ${opts.appUrl}`,
  ].join("\n");
}

export async function createNonce(ctx: ServiceContext, input: { walletAddress: string }) {
  if (!isValidWalletAddress(input.walletAddress)) throw new ValidationError(INVALID_ADDRESS);
  const now = ctx.now();
  const nonce = randomBytes(16).toString("hex");
  const message = buildSignInMessage({
    serviceName: ctx.config.serviceName,
    appUrl: ctx.config.appUrl,
    wallet: input.walletAddress,
    nonce,
    timestamp: now,
  });
  await ctx.db.insert(authNonces).values({
    nonce,
    walletAddress: input.walletAddress,
    message,
    createdAt: now,
    expiresAt: new Date(now.getTime() + NONCE_TTL_SECONDS * 1000),
  });
  return { nonce, message, expiresIn: NONCE_TTL_SECONDS };
}

/**
 * Consumes the nonce (the first attempt that finds it for this wallet deletes it, whatever
 * the signature), then checks expiry and the signature. Any failure is the same 401.
 */
export async function consumeSignedNonce(
  ctx: ServiceContext,
  input: { walletAddress: string; nonce: string; signature: string },
): Promise<string> {
  if (!isValidWalletAddress(input.walletAddress)) throw new UnauthorizedError(INVALID_SIGNATURE);
  if (!/^[0-9a-f]{32}$/.test(input.nonce)) throw new UnauthorizedError(INVALID_SIGNATURE);
  const [row] = await ctx.db
    .delete(authNonces)
    .where(
      and(eq(authNonces.nonce, input.nonce), eq(authNonces.walletAddress, input.walletAddress)),
    )
    .returning();
  if (!row) throw new UnauthorizedError(INVALID_SIGNATURE);
  if (row.expiresAt.getTime() <= ctx.now().getTime())
    throw new UnauthorizedError(INVALID_SIGNATURE);
  if (!verifyMessageSignature(input.walletAddress, row.message, input.signature)) {
    throw new UnauthorizedError(INVALID_SIGNATURE);
  }
  return input.walletAddress;
}

/** Housekeeping for the expiry job: expired nonces can never be used again. */
export async function deleteExpiredNonces(ctx: ServiceContext): Promise<number> {
  const rows = await ctx.db
    .delete(authNonces)
    .where(lt(authNonces.expiresAt, ctx.now()))
    .returning({ nonce: authNonces.nonce });
  return rows.length;
}
