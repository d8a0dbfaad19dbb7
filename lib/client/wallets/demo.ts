/**
 * The demo wallet (docs/decisions.md, Wallets): a Stellar Wallets Kit custom module whose
 * keypair lives in this browser's localStorage and signs in the page. It is offered only when
 * the server says a network's Horizon is a local ledger (lib/client/wallets/options.ts), which
 * funds it: XLM from its friendbot, USDC/EURC from its `/local/fund` (ledger/http.ts) after a
 * trustline the wallet signs itself, each through this app's same-origin forwarder
 * (app/demo-ledger/[network]/[...path]/route.ts; the pages' CSP allows no other origin). Loaded on demand (lib/client/wallets/kit.ts).
 */
import {
  type IKitError,
  type ModuleInterface,
  ModuleType,
} from "@creit.tech/stellar-wallets-kit/types";
import { Asset, Horizon, Keypair, Operation, TransactionBuilder } from "@stellar/stellar-sdk";
import { NETWORK_PASSPHRASES, type NetworkName, networkOf } from "@/lib/stellar/networks";
import type { WalletOptions } from "./catalog";

export const DEMO_WALLET_KEY = "stellar-invoicing.demo-wallet";

const unsupported = (what: string): IKitError => ({
  code: -3,
  message: `The demo wallet does not support "${what}"`,
});

function base64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** This browser's demo keypair, created on first use. */
export function demoKeypair(): Keypair {
  const secret = localStorage.getItem(DEMO_WALLET_KEY);
  if (secret) return Keypair.fromSecret(secret);
  const kp = Keypair.random();
  localStorage.setItem(DEMO_WALLET_KEY, kp.secret());
  return kp;
}

async function ok(res: Response, what: string): Promise<Response> {
  if (res.ok) return res;
  const body = (await res.json().catch(() => ({}))) as { detail?: string; title?: string };
  throw { code: -1, message: `${what}: ${body.detail ?? body.title ?? res.status}` };
}

export class DemoWalletModule implements ModuleInterface {
  moduleType = ModuleType.HOT_WALLET;
  productId = "demo";
  productName = "Demo wallet";
  productUrl = "";
  productIcon = "";

  constructor(private readonly ledgers: WalletOptions["demoLedgers"]) {}

  async isAvailable(): Promise<boolean> {
    return typeof localStorage !== "undefined";
  }

  async getAddress(): Promise<{ address: string }> {
    return { address: demoKeypair().publicKey() };
  }

  private horizon(network: NetworkName): string {
    const path = this.ledgers[network];
    if (!path) throw { code: -1, message: `no local ledger for ${network}` };
    // Same origin: the app forwards to the local ledger (app/demo-ledger/[network]/[...path]).
    return new URL(path, window.location.origin).href.replace(/\/+$/, "");
  }

  /** Creates the account on `network`'s local ledger (its friendbot) unless it exists. */
  async fund(network: NetworkName): Promise<void> {
    const horizon = this.horizon(network);
    const address = demoKeypair().publicKey();
    const account = await fetch(`${horizon}/accounts/${address}`);
    if (account.ok) return;
    await ok(
      await fetch(`${horizon}/friendbot?addr=${encodeURIComponent(address)}`),
      "The local friendbot refused",
    );
  }

  /** Adds a trustline to the local `code` issuer (signed here) and asks the ledger for `amount`. */
  async addAsset(network: NetworkName, code: "USDC" | "EURC", amount: string): Promise<void> {
    const horizon = this.horizon(network);
    await this.fund(network);
    const kp = demoKeypair();
    const issuers = (await (
      await ok(await fetch(`${horizon}/local/issuers`), "The local ledger has no issuers")
    ).json()) as Record<string, { issuer: string }>;
    const issuer = issuers[code]?.issuer;
    if (!issuer) throw { code: -1, message: `The local ledger does not issue ${code}` };
    const server = new Horizon.Server(horizon, { allowHttp: true });
    const account = await server.loadAccount(kp.publicKey());
    const trusted = account.balances.some(
      (b) => "asset_code" in b && b.asset_code === code && b.asset_issuer === issuer,
    );
    if (!trusted) {
      const tx = new TransactionBuilder(account, {
        fee: "100",
        networkPassphrase: NETWORK_PASSPHRASES[network],
      })
        .addOperation(Operation.changeTrust({ asset: new Asset(code, issuer) }))
        .setTimeout(60)
        .build();
      tx.sign(kp);
      await server.submitTransaction(tx);
    }
    await ok(
      await fetch(`${horizon}/local/fund`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ account: kp.publicKey(), assetCode: code, amount }),
      }),
      `The local ledger did not send ${code}`,
    );
  }

  async signTransaction(
    xdr: string,
    opts?: { networkPassphrase?: string; address?: string },
  ): Promise<{ signedTxXdr: string; signerAddress?: string }> {
    const kp = demoKeypair();
    const passphrase = opts?.networkPassphrase ?? NETWORK_PASSPHRASES.testnet;
    // Only networks the server runs a local ledger for: the demo key never signs elsewhere.
    if (Object.keys(this.ledgers).length && !this.ledgers[networkOf(passphrase)]) {
      throw { code: -1, message: "The demo wallet signs only for a local ledger" };
    }
    const tx = TransactionBuilder.fromXDR(xdr, passphrase);
    tx.sign(kp);
    return { signedTxXdr: tx.toXDR(), signerAddress: kp.publicKey() };
  }

  /** SEP-53: ed25519 over sha256("Stellar Signed Message:\n" + message), base64. */
  async signMessage(message: string): Promise<{ signedMessage: string; signerAddress?: string }> {
    const kp = demoKeypair();
    const data = new TextEncoder().encode(`Stellar Signed Message:\n${message}`);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
    const signature = kp.sign(digest as unknown as Buffer);
    return { signedMessage: base64(new Uint8Array(signature)), signerAddress: kp.publicKey() };
  }

  signAuthEntry(): Promise<{ signedAuthEntry: string }> {
    return Promise.reject(unsupported("signAuthEntry"));
  }

  getNetwork(): Promise<{ network: string; networkPassphrase: string }> {
    return Promise.reject(unsupported("getNetwork"));
  }
}
