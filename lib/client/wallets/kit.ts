/**
 * Stellar Wallets Kit, loaded only when the user picks a wallet or signs (lib/client/wallet.ts
 * imports this module dynamically): the kit with the one module the user chose, imported on
 * demand too, so a payer using Freighter never downloads WalletConnect (docs/decisions.md,
 * Wallets).
 */
import { StellarWalletsKit } from "@creit.tech/stellar-wallets-kit/sdk";
import type { ModuleInterface } from "@creit.tech/stellar-wallets-kit/types";
import type { WalletId, WalletOptions } from "./catalog";

async function loadModule(id: WalletId, options: WalletOptions): Promise<ModuleInterface> {
  switch (id) {
    case "freighter":
      return new (
        await import("@creit.tech/stellar-wallets-kit/modules/freighter")
      ).FreighterModule();
    case "xbull":
      return new (await import("@creit.tech/stellar-wallets-kit/modules/xbull")).xBullModule();
    case "lobstr":
      return new (await import("@creit.tech/stellar-wallets-kit/modules/lobstr")).LobstrModule();
    case "albedo":
      return new (await import("@creit.tech/stellar-wallets-kit/modules/albedo")).AlbedoModule();
    case "hana":
      return new (await import("@creit.tech/stellar-wallets-kit/modules/hana")).HanaModule();
    case "rabet":
      return new (await import("@creit.tech/stellar-wallets-kit/modules/rabet")).RabetModule();
    case "wallet_connect": {
      if (!options.walletConnectProjectId) throw new Error("WalletConnect is not configured");
      const wc = await import("@creit.tech/stellar-wallets-kit/modules/wallet-connect");
      return new wc.WalletConnectModule({
        projectId: options.walletConnectProjectId,
        metadata: {
          name: "Stellar Invoicing",
          description: "Invoices paid on the Stellar network",
          url: window.location.origin,
          icons: [`${window.location.origin}/favicon.ico`],
        },
      });
    }
    case "demo":
      return new (await import("./demo")).DemoWalletModule(options.demoLedgers);
    case "demo_smart":
      return new (await import("./demo")).DemoSmartWalletModule(options.demoLedgers);
  }
}

const loaded = new Map<WalletId, ModuleInterface>();

/** The kit set to `id`'s module (created once per page). */
export async function kitFor(id: WalletId, options: WalletOptions) {
  let module = loaded.get(id);
  if (!module) {
    module = await loadModule(id, options);
    loaded.set(id, module);
  }
  StellarWalletsKit.init({ modules: [...loaded.values()], selectedWalletId: id });
  return { kit: StellarWalletsKit, module };
}
