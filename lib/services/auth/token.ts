import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { UnauthorizedError } from "@/lib/domain/errors";
import { isValidWalletAddress } from "@/lib/stellar/keys";

export const SESSION_TTL_SECONDS = 3600;
export const INVALID_TOKEN = "Invalid or expired token";

const key = (secret: string) => new TextEncoder().encode(secret);

export async function issueSessionToken(opts: { secret: string; wallet: string; now: Date }) {
  const iat = Math.floor(opts.now.getTime() / 1000);
  const exp = iat + SESSION_TTL_SECONDS;
  const token = await new SignJWT({ walletAddress: opts.wallet })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(opts.wallet)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key(opts.secret));
  return { token, expiresAt: new Date(exp * 1000) };
}

/** Returns the wallet of a valid session token; anything else is 401 `Invalid or expired token`. */
export async function verifySessionToken(opts: {
  secret: string;
  token: string;
  now: Date;
}): Promise<string> {
  try {
    const { payload } = await jwtVerify(opts.token, key(opts.secret), {
      algorithms: ["HS256"],
      currentDate: opts.now,
      requiredClaims: ["exp"],
    });
    const wallet = payload.walletAddress;
    if (!isValidWalletAddress(wallet)) throw new UnauthorizedError(INVALID_TOKEN);
    return wallet;
  } catch (err) {
    if (err instanceof UnauthorizedError || err instanceof joseErrors.JOSEError) {
      throw new UnauthorizedError(INVALID_TOKEN);
    }
    if (err instanceof TypeError) throw new UnauthorizedError(INVALID_TOKEN);
    throw err;
  }
}
