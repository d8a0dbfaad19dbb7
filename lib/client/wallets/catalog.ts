/**
 * The wallets the service offers, as plain data: the pickers (components/wallet/wallet-picker.tsx)
 * render from this list without loading Stellar Wallets Kit, whose code is imported only when
 * the user picks a wallet (lib/client/wallets/kit.ts), so the checkout's first load stays small
 * (docs/decisions.md, Wallets). No imports: safe on the server and in the browser.
 */

export type WalletId =
  | "freighter"
  | "xbull"
  | "lobstr"
  | "albedo"
  | "hana"
  | "rabet"
  | "wallet_connect"
  | "demo"
  | "demo_smart";

export type WalletInfo = {
  /** The kit's module id (its productId). */
  id: WalletId;
  name: string;
  /**
   * Signs a SEP-53 message (the kit's `signMessage`), which sign-in needs. Albedo's message
   * signature is not SEP-53 and Rabet has none: they can pay, not sign in.
   */
  signsMessages: boolean;
  /** What to do when the wallet is not found in this browser. */
  install: string;
  /**
   * A smart wallet (a contract account, C...): it pays through the asset contract, signing
   * Soroban authorization entries, with a G fee payer (docs/decisions.md, Smart-wallet
   * payers). It cannot sign in. Stellar Wallets Kit 2.6 has no such module; the demo smart
   * wallet stands in for one on local ledgers.
   */
  smart?: boolean;
};

const extension = (name: string) => `Install the ${name} browser extension, then reload this page.`;

export const WALLETS: readonly WalletInfo[] = [
  { id: "freighter", name: "Freighter", signsMessages: true, install: extension("Freighter") },
  { id: "xbull", name: "xBull", signsMessages: true, install: extension("xBull") },
  { id: "lobstr", name: "LOBSTR", signsMessages: true, install: extension("LOBSTR signer") },
  { id: "hana", name: "Hana", signsMessages: true, install: extension("Hana") },
  {
    id: "albedo",
    name: "Albedo",
    signsMessages: false,
    install: "Open albedo.link and try again.",
  },
  { id: "rabet", name: "Rabet", signsMessages: false, install: extension("Rabet") },
  {
    id: "wallet_connect",
    name: "WalletConnect",
    signsMessages: true,
    install: "Open a wallet that supports WalletConnect and try again.",
  },
  {
    id: "demo",
    name: "Demo wallet (local ledger only)",
    signsMessages: true,
    install: "The demo wallet works only against a local ledger.",
  },
  {
    id: "demo_smart",
    name: "Demo smart wallet (local ledger only)",
    signsMessages: false,
    install: "The demo smart wallet works only against a local ledger.",
    smart: true,
  },
];

export const walletInfo = (id: string): WalletInfo =>
  WALLETS.find((w) => w.id === id) ?? WALLETS[0];

/**
 * What the server lets the browser offer (lib/client/wallets/options.ts): WalletConnect only
 * with a project id, the demo wallet only on the networks whose Horizon is a local ledger.
 */
export type WalletOptions = {
  walletConnectProjectId: string | null;
  /**
   * Per network name ("testnet", "mainnet") with a local ledger, the same-origin path that
   * forwards to it (app/demo-ledger/[network]/[...path]/route.ts).
   */
  demoLedgers: Partial<Record<"testnet" | "mainnet", string>>;
};

export const NO_WALLET_OPTIONS: WalletOptions = { walletConnectProjectId: null, demoLedgers: {} };

/**
 * The wallets to list: every wallet, minus WalletConnect without a project id and minus the
 * demo wallet unless `demoNetwork` (checkout: the invoice's network; sign-in: any) has a
 * local ledger. Offline (a local ledger, so the demo wallet is offered) the demo wallet comes
 * first: it is the one that works there without installing anything. For sign-in, the wallets
 * that cannot sign in come last (the picker shows them disabled, with the reason).
 */
export function offeredWallets(
  options: WalletOptions,
  demoNetwork: "testnet" | "mainnet" | "any",
): WalletInfo[] {
  const demo =
    demoNetwork === "any"
      ? Object.keys(options.demoLedgers).length > 0
      : Boolean(options.demoLedgers[demoNetwork]);
  const offered = WALLETS.filter((w) => {
    if (w.id === "wallet_connect") return Boolean(options.walletConnectProjectId);
    if (w.id === "demo") return demo;
    // A smart wallet pays; it never signs in (no SEP-53 message signature).
    if (w.id === "demo_smart") return demo && demoNetwork !== "any";
    return true;
  });
  const rank = (w: WalletInfo) =>
    w.id === "demo" || w.id === "demo_smart"
      ? 0
      : demoNetwork === "any" && !w.signsMessages
        ? 2
        : 1;
  // Array.prototype.sort is stable: the catalog's order within each rank.
  return offered.sort((a, b) => rank(a) - rank(b));
}
