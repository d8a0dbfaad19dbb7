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
import {
  Address,
  Asset,
  Horizon,
  hash,
  Keypair,
  nativeToScVal,
  Operation,
  rpc,
  TransactionBuilder,
} from "@stellar/stellar-sdk";
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

  /** The network's local ledger, through this app's same-origin forwarder. */
  protected ledgerUrl(network: NetworkName): string {
    return this.horizon(network);
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

  signAuthEntry(_authEntry: string): Promise<{ signedAuthEntry: string; signerAddress?: string }> {
    return Promise.reject(unsupported("signAuthEntry"));
  }

  getNetwork(): Promise<{ network: string; networkPassphrase: string }> {
    return Promise.reject(unsupported("getNetwork"));
  }
}

const SMART_WALLET_KEY = "stellar-invoicing.demo-smart-wallet";
/** XLM the smart wallet gets from the demo account when it is created. */
const SMART_WALLET_XLM = "1000.0000000";

/**
 * The demo smart wallet (docs/decisions.md, Smart-wallet payers): the local stand-in for a
 * smart wallet (a contract account, `C...`, e.g. a passkey wallet), for tests and
 * `npm run dev:offline`. Connecting creates a local smart wallet on the network's local ledger
 * for the demo key (`POST /local/smart-wallets`), whose authorization is the demo key's
 * ed25519 signature over the Soroban authorization entry (the SDK's `authorizeEntry` shape: the
 * local stand-in for a wallet contract's `__check_auth`), and moves into it what the demo
 * account holds of USDC and EURC (and 1,000 XLM once), through the asset contracts'
 * `transfer`. The demo account (G) stays the fee payer: it is the transaction's source and
 * signs the envelope. Its address is the contract's.
 */
export class DemoSmartWalletModule extends DemoWalletModule {
  productId = "demo_smart";
  productName = "Demo smart wallet";
  /** The network the wallet was connected on last (its address is that network's contract). */
  private network: NetworkName | null = null;

  private stored(): Partial<Record<NetworkName, string>> {
    try {
      return JSON.parse(localStorage.getItem(SMART_WALLET_KEY) ?? "{}");
    } catch {
      return {};
    }
  }

  /** The account that pays the fees of the smart wallet's transactions: the demo account. */
  feeAccount(): string {
    return demoKeypair().publicKey();
  }

  async getAddress(): Promise<{ address: string }> {
    const contract = this.network ? this.stored()[this.network] : undefined;
    if (!contract) throw { code: -1, message: "The demo smart wallet is not set up yet" };
    return { address: contract };
  }

  /**
   * Funds the demo account (friendbot), creates its smart wallet on `network`'s local ledger
   * unless it has one there, and moves the demo account's USDC and EURC into it.
   */
  async prepare(network: NetworkName): Promise<void> {
    const horizon = this.ledgerUrl(network);
    await this.fund(network);
    const kp = demoKeypair();
    const all = this.stored();
    let contract = all[network];
    let created = false;
    if (!contract) {
      const res = await ok(
        await fetch(`${horizon}/local/smart-wallets`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ signer: kp.publicKey() }),
        }),
        "The local ledger did not create the smart wallet",
      );
      contract = ((await res.json()) as { contractId: string }).contractId;
      localStorage.setItem(SMART_WALLET_KEY, JSON.stringify({ ...all, [network]: contract }));
      created = true;
    }
    this.network = network;
    const server = new Horizon.Server(horizon, { allowHttp: true });
    const account = await server.loadAccount(kp.publicKey());
    const moves: { asset: Asset; amount: string }[] = [];
    if (created) moves.push({ asset: Asset.native(), amount: SMART_WALLET_XLM });
    for (const b of account.balances) {
      if ("asset_code" in b && (b.asset_code === "USDC" || b.asset_code === "EURC")) {
        if (Number(b.balance) > 0) {
          moves.push({ asset: new Asset(b.asset_code, b.asset_issuer), amount: b.balance });
        }
      }
    }
    for (const move of moves) await this.transferIn(network, contract, move.asset, move.amount);
  }

  /** The demo account's asset contract `transfer` to its smart wallet (it authorizes as source). */
  private async transferIn(network: NetworkName, contract: string, asset: Asset, amount: string) {
    const horizon = this.ledgerUrl(network);
    const passphrase = NETWORK_PASSPHRASES[network];
    const kp = demoKeypair();
    const server = new Horizon.Server(horizon, { allowHttp: true });
    const rpcServer = new rpc.Server(`${horizon}/rpc`, { allowHttp: true });
    const account = await server.loadAccount(kp.publicKey());
    // Horizon's balances have exactly 7 decimals: the amount in stroops.
    const stroops = BigInt(amount.replace(".", ""));
    const tx = new TransactionBuilder(account, { fee: "100", networkPassphrase: passphrase })
      .addOperation(
        Operation.invokeContractFunction({
          contract: asset.contractId(passphrase),
          function: "transfer",
          args: [
            new Address(kp.publicKey()).toScVal(),
            new Address(contract).toScVal(),
            nativeToScVal(stroops, { type: "i128" }),
          ],
        }),
      )
      .setTimeout(60)
      .build();
    const prepared = await rpcServer.prepareTransaction(tx);
    prepared.sign(kp);
    await server.submitTransaction(prepared);
  }

  /**
   * SEP-43 `signAuthEntry`: the demo key's ed25519 signature of the hash of the
   * `HashIdPreimageSorobanAuthorization` (base64 XDR), base64, with the key as signer.
   */
  async signAuthEntry(
    authEntry: string,
  ): Promise<{ signedAuthEntry: string; signerAddress?: string }> {
    const kp = demoKeypair();
    const preimage = Uint8Array.from(atob(authEntry), (c) => c.charCodeAt(0));
    const signature = kp.sign(hash(preimage as unknown as Buffer));
    return { signedAuthEntry: base64(new Uint8Array(signature)), signerAddress: kp.publicKey() };
  }

  /** A smart wallet cannot sign a SEP-53 message: it pays, it does not sign in. */
  async signMessage(): Promise<{ signedMessage: string; signerAddress?: string }> {
    throw unsupported("signMessage");
  }
}
