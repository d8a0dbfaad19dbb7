import type { DbOrTx } from "@/db/client";
import type { Config } from "@/lib/config";
import type { ApiKeyScope } from "@/lib/domain/api-key-scopes";
import type { TeamRole } from "@/lib/domain/team-access";
import type { Logger } from "@/lib/logger";
import type { RateLimitPolicy } from "@/lib/ratelimit/types";
import type { StatusCache } from "@/lib/services/payments/status-cache";
import type { NetworkName } from "@/lib/stellar/networks";

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
  /** The restricted API key the request was authenticated with (lib/services/auth/api-keys.ts). */
  apiKey?: ApiKeyClaims;
  /**
   * Set when a team member's books token opened another wallet's books: `wallet` (of
   * AuthedContext) is then the owner's, and this is who acts (docs/decisions.md, Team access).
   */
  member?: { wallet: string; role: TeamRole };
  /** This instance's payment-status cache (lib/services/payments/status-cache.ts), if any. */
  statusCache?: StatusCache;
  /**
   * Counts a limit that applies to only some outcomes of an operation against the caller's
   * address (with `key`: per address and key), 429 past it; absent outside HTTP requests.
   */
  limitCaller?: (policy: RateLimitPolicy, key?: string) => Promise<void>;
};

/** A verified session token: sign-out revokes its `jti` (lib/services/auth/sessions.ts). */
export type SessionClaims = {
  jti: string;
  wallet: string;
  issuedAt: Date;
  expiresAt: Date;
  /** A books token's owner wallet: the books it opens, for `wallet` as a team member. */
  books?: string;
};

/** A verified API key: its wallet acts through it within its scopes and network. */
export type ApiKeyClaims = {
  id: string;
  wallet: string;
  prefix: string;
  scopes: ApiKeyScope[];
  network: NetworkName;
};

/** The same, for a caller whose wallet has been authenticated. */
export type AuthedContext = ServiceContext & { wallet: string };

/**
 * Who an audit entry names: the wallet, `key:<prefix>` when an API key acted for it, or the
 * team member's own wallet when a member acted on the owner's books.
 */
export const actorOf = (ctx: AuthedContext): string =>
  ctx.member ? ctx.member.wallet : ctx.apiKey ? `key:${ctx.apiKey.prefix}` : ctx.wallet;
