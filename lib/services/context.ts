import type { DbOrTx } from "@/db/client";
import type { Config } from "@/lib/config";
import type { Logger } from "@/lib/logger";

/**
 * Everything a service may use. Services never import Next.js or read headers; the clock
 * and the ports come from here so tests can pin them. `db` may be the caller's transaction:
 * services open theirs with withTransaction, which joins one already open.
 */
export type ServiceContext = {
  db: DbOrTx;
  config: Config;
  now: () => Date;
  logger: Logger;
  requestId: string;
  /** The session token the request was authenticated with (lib/services/auth/token.ts). */
  session?: SessionClaims;
};

/** A verified session token: sign-out revokes its `jti` (lib/services/auth/sessions.ts). */
export type SessionClaims = { jti: string; wallet: string; issuedAt: Date; expiresAt: Date };

/** The same, for a caller whose wallet has been authenticated. */
export type AuthedContext = ServiceContext & { wallet: string };
