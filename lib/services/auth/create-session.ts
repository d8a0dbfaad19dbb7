import type { ServiceContext } from "../context";
import { consumeSignedNonce } from "./nonce";
import { issueSessionToken } from "./token";

export async function createSession(
  ctx: ServiceContext,
  input: { walletAddress: string; nonce: string; signature: string },
) {
  const wallet = await consumeSignedNonce(ctx, input);
  const { token, expiresAt } = await issueSessionToken({
    secret: ctx.config.jwtSecret,
    wallet,
    now: ctx.now(),
  });
  return { token, expiresAt: expiresAt.toISOString(), walletAddress: wallet };
}
