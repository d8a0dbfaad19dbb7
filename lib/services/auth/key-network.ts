import { eq, type SQL } from "drizzle-orm";
import { invoices } from "@/db/schema";
import { INSUFFICIENT_SCOPE } from "@/lib/domain/api-key-scopes";
import { ForbiddenError } from "@/lib/domain/errors";
import { NETWORK_PASSPHRASES, networkOf } from "@/lib/stellar/networks";
import type { ServiceContext } from "../context";

/**
 * An API key works on one network (docs/decisions.md, API keys), like Stripe's test and live
 * keys: `sk_test_` on testnet invoices and links, `sk_live_` on mainnet ones. A signed-in
 * wallet sees both.
 */

/** The network a new invoice or link goes to when the request names none. */
export const defaultPassphrase = (ctx: ServiceContext): string =>
  NETWORK_PASSPHRASES[ctx.apiKey?.network ?? "testnet"];

/** 403 `Insufficient scope` when a key creates on the other network. */
export function assertKeyNetwork(ctx: ServiceContext, passphrase: string): void {
  if (ctx.apiKey && networkOf(passphrase) !== ctx.apiKey.network) {
    throw new ForbiddenError(INSUFFICIENT_SCOPE, {
      network: `this key works on ${ctx.apiKey.network} only`,
    });
  }
}

/** False for an invoice on the other network than the caller's key (it answers as absent). */
export const keySees = (ctx: ServiceContext, row: { networkPassphrase: string }): boolean =>
  !ctx.apiKey || networkOf(row.networkPassphrase) === ctx.apiKey.network;

/** The passphrase a key keeps its caller to; undefined for a wallet (it sees both). */
export const keyPassphrase = (ctx: ServiceContext): string | undefined =>
  ctx.apiKey && NETWORK_PASSPHRASES[ctx.apiKey.network];

/** The list condition that keeps a key to its network's invoices (none for a wallet). */
export const keyNetworkCondition = (ctx: ServiceContext): SQL[] => {
  const passphrase = keyPassphrase(ctx);
  return passphrase ? [eq(invoices.networkPassphrase, passphrase)] : [];
};
