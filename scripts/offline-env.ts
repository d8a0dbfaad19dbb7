import path from "node:path";

/**
 * The app's environment under `npm run dev:offline` (scripts/dev-offline.ts), kept apart from
 * the script so tests can check it without starting ledgers.
 */

/**
 * Where the offline app keeps its embedded database and the local ledgers their state:
 * `./.data-offline`, never the online run's `./.data`, so invoices made against the real
 * networks do not show up offline (docs/decisions.md, Trying it offline). DATA_DIR, when set
 * in the environment, wins.
 */
export function offlineDataDir(env: Record<string, string | undefined>, root: string): string {
  return path.resolve(root, env.DATA_DIR || ".data-offline");
}

/**
 * Transaction links offline point at the local ledger that holds the transaction (its
 * `/transactions/<hash>`), not at a public explorer that never saw it (docs/decisions.md,
 * Trying it offline). The app learns it from configuration only.
 */
export function offlineExplorers(ledgers: { testnet: string; mainnet: string }) {
  return {
    EXPLORER_TESTNET_URL: `${ledgers.testnet}/transactions/`,
    EXPLORER_MAINNET_URL: `${ledgers.mainnet}/transactions/`,
  };
}

/**
 * Webhooks offline go to receivers on this machine (docs/decisions.md, Trying it offline):
 * there is no DNS, so no public https host could pass the SSRF check anyway. dev:offline runs
 * the production build (NODE_ENV=production), where WEBHOOK_ALLOW_LOOPBACK stops start-up
 * without the second acknowledgement (lib/config.ts), so it sets both, whatever `.env` says.
 * Only loopback is admitted: private, link-local and metadata addresses stay refused.
 */
export function offlineWebhookEnv() {
  return {
    WEBHOOK_ALLOW_LOOPBACK: "true",
    WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION: "i-understand",
  } as const;
}
