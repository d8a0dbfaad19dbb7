/**
 * The user's Stellar wallet, through Stellar Wallets Kit (lib/client/wallets/kit.ts, imported
 * only when a wallet is used, never on first load). The wallet the user connected last is
 * remembered (localStorage), so `signPayment` keeps signing with it on later pages (refunds,
 * trustlines). Every call is bounded in time: without the extension a wallet's library may
 * never answer, so availability is asked first with a short timeout, and a user who walks away
 * from a popup gets a clear error naming their wallet, never an endless "Connecting...".
 */

import { withTimeout } from "@/lib/timeout";
import {
  NO_WALLET_OPTIONS,
  type WalletId,
  type WalletInfo,
  type WalletOptions,
  walletInfo,
} from "./wallets/catalog";

export type WalletErrorKind =
  | "missing"
  | "locked"
  | "rejected"
  | "wrong_network"
  | "timeout"
  | "failed"
  | "cannot_sign_in";

export class WalletError extends Error {
  constructor(
    readonly kind: WalletErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** The user-facing message of each kind, naming the wallet. */
export function walletMessage(kind: WalletErrorKind, wallet: WalletInfo): string {
  const name = wallet.name;
  switch (kind) {
    case "missing":
      return `${name} was not found. ${wallet.install}`;
    case "locked":
      return `${name} is locked. Open it, unlock it, and try again.`;
    case "rejected":
      return `The request was cancelled in ${name}.`;
    case "wrong_network":
      return `${name} is on another network.`;
    case "timeout":
      return `${name} did not answer. Open it and try again.`;
    case "cannot_sign_in":
      return `${name} cannot sign a message, so it cannot sign in here. It can still pay invoices.`;
    default:
      return `${name} could not complete the request.`;
  }
}

const DETECT_TIMEOUT_MS = 2500;
const USER_TIMEOUT_MS = 120_000;
const LAST_WALLET_KEY = "stellar-invoicing.wallet";

const walletError = (kind: WalletErrorKind, wallet: WalletInfo) => () =>
  new WalletError(kind, walletMessage(kind, wallet));

/** The wallet the user connected last in this browser (Freighter before any choice). */
export function lastWalletId(): WalletId {
  try {
    return walletInfo(localStorage.getItem(LAST_WALLET_KEY) ?? "freighter").id;
  } catch {
    return "freighter";
  }
}

/** The kit reports failures as `{code, message}` objects (or Errors); map them to our kinds. */
function fromKitError(err: unknown, wallet: WalletInfo): WalletError {
  if (err instanceof WalletError) return err;
  const e = err as { message?: string; error?: { message?: string } } | string | undefined;
  const message = typeof e === "string" ? e : (e?.error?.message ?? e?.message ?? "");
  const text = message.toLowerCase();
  if (/reject|declin|cancel|denied/.test(text)) {
    return new WalletError("rejected", walletMessage("rejected", wallet));
  }
  if (text.includes("lock")) return new WalletError("locked", walletMessage("locked", wallet));
  return new WalletError(
    "failed",
    message ? `${wallet.name}: ${message}` : walletMessage("failed", wallet),
  );
}

/** Runs `fn` against the kit set to `id`, bounded by `ms`, with errors named for the wallet. */
async function withWallet<T>(
  id: WalletId,
  options: WalletOptions,
  ms: number,
  fn: (k: Awaited<ReturnType<typeof import("./wallets/kit").kitFor>>) => Promise<T>,
): Promise<T> {
  const wallet = walletInfo(id);
  try {
    const { kitFor } = await import("./wallets/kit");
    const k = await kitFor(id, options);
    return await withTimeout(fn(k), ms, walletError("timeout", wallet));
  } catch (err) {
    throw fromKitError(err, wallet);
  }
}

/** Whether `id`'s wallet answers in this browser (installed, unlocked enough to reply). */
export async function detectWallet(id: WalletId, options = NO_WALLET_OPTIONS): Promise<boolean> {
  try {
    return await withWallet(id, options, DETECT_TIMEOUT_MS, ({ module }) => module.isAvailable());
  } catch {
    return false;
  }
}

/**
 * Asks the wallet for the user's address (opens its popup the first time) and remembers it as
 * the wallet to sign with. The demo wallet is funded first on `fundOn` (its local ledger).
 */
export async function connectWallet(
  id: WalletId = lastWalletId(),
  options: WalletOptions = NO_WALLET_OPTIONS,
  fundOn: ("testnet" | "mainnet")[] = [],
): Promise<string> {
  const wallet = walletInfo(id);
  if (!(await detectWallet(id, options))) {
    throw new WalletError("missing", walletMessage("missing", wallet));
  }
  const address = await withWallet(id, options, USER_TIMEOUT_MS, async ({ kit, module }) => {
    if (id === "demo_smart") {
      // Its smart wallet (and its address) is per network: set up on the invoice's one.
      const smart = module as import("./wallets/demo").DemoSmartWalletModule;
      for (const network of fundOn) await smart.prepare(network);
    }
    const { address } = await kit.fetchAddress();
    if (id === "demo") {
      const demo = module as import("./wallets/demo").DemoWalletModule;
      for (const network of fundOn) await demo.fund(network);
    }
    return address;
  });
  if (!address) throw new WalletError("locked", walletMessage("locked", wallet));
  try {
    localStorage.setItem(LAST_WALLET_KEY, id);
  } catch {
    // private mode: signing falls back to Freighter
  }
  return address;
}

/** SEP-53 message signature, base64 (what the service's sign-in accepts). */
export async function signLoginMessage(
  message: string,
  address: string,
  id: WalletId = lastWalletId(),
  options: WalletOptions = NO_WALLET_OPTIONS,
): Promise<string> {
  const wallet = walletInfo(id);
  if (!wallet.signsMessages) {
    throw new WalletError("cannot_sign_in", walletMessage("cannot_sign_in", wallet));
  }
  const signed = await withWallet(id, options, USER_TIMEOUT_MS, async ({ kit }) => {
    const res = await kit.signMessage(message, { address });
    return res.signedMessage;
  });
  if (!signed) throw new WalletError("rejected", walletMessage("rejected", wallet));
  return signed;
}

/**
 * Signs a transaction with the wallet the user connected last, after checking the wallet is
 * on the network the payment needs (when the wallet can tell: Freighter and WalletConnect can,
 * xBull, LOBSTR, Albedo, Hana and Rabet cannot, and sign for the passphrase they are given).
 */
export async function signPayment(
  xdr: string,
  networkPassphrase: string,
  address: string,
  options: WalletOptions = NO_WALLET_OPTIONS,
): Promise<string> {
  const id = lastWalletId();
  const wallet = walletInfo(id);
  const current = await withWallet(id, options, DETECT_TIMEOUT_MS * 2, async ({ kit }) => {
    try {
      return (await kit.getNetwork()).networkPassphrase;
    } catch (err) {
      // -3: the wallet has no getNetwork (the kit's "not supported").
      if ((err as { code?: number })?.code === -3) return null;
      throw err;
    }
  });
  if (current && current !== networkPassphrase) {
    throw new WalletError(
      "wrong_network",
      `${wallet.name} is set to "${current}". Switch it to "${networkPassphrase}" and try again.`,
    );
  }
  const signed = await withWallet(id, options, USER_TIMEOUT_MS, async ({ kit }) => {
    const res = await kit.signTransaction(xdr, { networkPassphrase, address });
    return res.signedTxXdr;
  });
  if (!signed) throw new WalletError("rejected", walletMessage("rejected", wallet));
  return signed;
}

/** The demo wallet's "add USDC/EURC" (local ledger only; lib/client/wallets/demo.ts). */
export async function fundDemoWallet(
  options: WalletOptions,
  network: "testnet" | "mainnet",
  code: "USDC" | "EURC",
  amount = "100",
): Promise<void> {
  await withWallet("demo", options, USER_TIMEOUT_MS, async ({ module }) => {
    await (module as import("./wallets/demo").DemoWalletModule).addAsset(network, code, amount);
  });
}

/** What pay-intent answers for a smart wallet's payment (lib/schemas/payments.ts). */
export type SmartPaymentIntent = {
  transactionXdr: string;
  networkPassphrase: string;
  contractPayment: { from: string; feeAccount: string; authValidUntilLedger: number };
};

/**
 * The G account that pays the fees of the connected smart wallet's transactions (the demo
 * smart wallet's demo account); null for a wallet that is not a smart wallet.
 */
export async function smartWalletFeeAccount(
  options: WalletOptions = NO_WALLET_OPTIONS,
): Promise<string | null> {
  const id = lastWalletId();
  if (!walletInfo(id).smart) return null;
  return withWallet(id, options, DETECT_TIMEOUT_MS, async ({ module }) =>
    (module as import("./wallets/demo").DemoSmartWalletModule).feeAccount(),
  );
}

/**
 * A smart wallet's payment (docs/decisions.md, Smart-wallet payers): each of the assembled
 * transaction's authorization entries for the contract account is signed through the wallet's
 * `signAuthEntry` (SEP-43: a signature of the entry's preimage hash) with the SDK's
 * `authorizeEntry`, valid until `authValidUntilLedger`; then the fee account signs the
 * envelope (`signPayment`). Returns the signed envelope for POST /api/payments/submit.
 */
export async function signSmartPayment(
  intent: SmartPaymentIntent,
  options: WalletOptions = NO_WALLET_OPTIONS,
): Promise<string> {
  const id = lastWalletId();
  const { transactionXdr, networkPassphrase, contractPayment } = intent;
  const { Address, TransactionBuilder, authorizeEntry, Transaction, xdr } = await import(
    "@stellar/stellar-sdk"
  );
  const tx = TransactionBuilder.fromXDR(transactionXdr, networkPassphrase);
  if (!(tx instanceof Transaction)) throw new WalletError("failed", "Not a smart wallet payment");
  const envelope = tx.toEnvelope();
  const [op] = envelope.v1().tx().operations();
  const invoke = op.body().invokeHostFunctionOp();
  const signed = await withWallet(id, options, USER_TIMEOUT_MS, async ({ kit }) =>
    Promise.all(
      invoke.auth().map((entry) => {
        const credentials = entry.credentials();
        const mine =
          credentials.switch().value ===
            xdr.SorobanCredentialsType.sorobanCredentialsAddress().value &&
          Address.fromScAddress(credentials.address().address()).toString() ===
            contractPayment.from;
        if (!mine) return entry;
        return authorizeEntry(
          entry,
          async (preimage) => {
            const res = await kit.signAuthEntry(preimage.toXDR("base64"), {
              networkPassphrase,
              address: contractPayment.from,
            });
            if (!res.signedAuthEntry || !res.signerAddress) {
              throw new WalletError("rejected", walletMessage("rejected", walletInfo(id)));
            }
            const bytes = Uint8Array.from(atob(res.signedAuthEntry), (c) => c.charCodeAt(0));
            return { signature: bytes, publicKey: res.signerAddress };
          },
          contractPayment.authValidUntilLedger,
          networkPassphrase,
        );
      }),
    ),
  );
  invoke.auth(signed);
  const authorized = new Transaction(envelope, networkPassphrase);
  return signPayment(authorized.toXDR(), networkPassphrase, contractPayment.feeAccount, options);
}
