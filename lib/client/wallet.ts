/**
 * Freighter, through @stellar/freighter-api (browser only). Every call is bounded in time:
 * without the extension the library's requests never answer, so `isConnected` is asked first
 * with a short timeout, and a user who walks away from a popup gets a clear error, never an
 * endless "Connecting...".
 */

import {
  getNetworkDetails,
  isConnected,
  requestAccess,
  signMessage,
  signTransaction,
} from "@stellar/freighter-api";
import { withTimeout } from "@/lib/timeout";

export type WalletErrorKind =
  | "missing"
  | "locked"
  | "rejected"
  | "wrong_network"
  | "timeout"
  | "failed";

export class WalletError extends Error {
  constructor(
    readonly kind: WalletErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export const WALLET_MESSAGES: Record<WalletErrorKind, string> = {
  missing:
    "Freighter was not found. Install the Freighter browser extension, then reload this page.",
  locked: "Freighter is locked. Open the extension, unlock it, and try again.",
  rejected: "The request was cancelled in Freighter.",
  wrong_network: "Freighter is on another network.",
  timeout: "Freighter did not answer. Open the extension and try again.",
  failed: "Freighter could not complete the request.",
};

const DETECT_TIMEOUT_MS = 2500;
const walletError = (kind: WalletErrorKind) => () => new WalletError(kind, WALLET_MESSAGES[kind]);
const USER_TIMEOUT_MS = 120_000;

/** Freighter reports failures in an `error` field; map it to one of our kinds. */
function fromFreighterError(
  error: { message?: string; code?: number } | string | undefined,
): WalletError {
  const message = typeof error === "string" ? error : (error?.message ?? "");
  const text = message.toLowerCase();
  if (
    text.includes("reject") ||
    text.includes("declin") ||
    text.includes("cancel") ||
    text.includes("denied")
  ) {
    return new WalletError("rejected", WALLET_MESSAGES.rejected);
  }
  if (text.includes("lock")) return new WalletError("locked", WALLET_MESSAGES.locked);
  return new WalletError("failed", message ? `Freighter: ${message}` : WALLET_MESSAGES.failed);
}

export async function detectFreighter(): Promise<boolean> {
  try {
    const res = await withTimeout(isConnected(), DETECT_TIMEOUT_MS, walletError("missing"));
    return Boolean(res.isConnected) && !res.error;
  } catch {
    return false;
  }
}

/** Asks Freighter for the user's address (opens its popup the first time). */
export async function connectWallet(): Promise<string> {
  if (!(await detectFreighter())) throw new WalletError("missing", WALLET_MESSAGES.missing);
  const res = await withTimeout(requestAccess(), USER_TIMEOUT_MS, walletError("timeout"));
  if (res.error) throw fromFreighterError(res.error);
  if (!res.address) throw new WalletError("locked", WALLET_MESSAGES.locked);
  return res.address;
}

/** The passphrase Freighter is set to. */
export async function walletNetwork(): Promise<string> {
  const res = await withTimeout(getNetworkDetails(), DETECT_TIMEOUT_MS * 2, walletError("timeout"));
  if (res.error) throw fromFreighterError(res.error);
  return res.networkPassphrase;
}

/** SEP-53 message signature, base64 (what the service's sign-in accepts). */
export async function signLoginMessage(message: string, address: string): Promise<string> {
  const res = await withTimeout(
    signMessage(message, { address }),
    USER_TIMEOUT_MS,
    walletError("timeout"),
  );
  if (res.error) throw fromFreighterError(res.error);
  const signed = res.signedMessage;
  if (!signed) throw new WalletError("rejected", WALLET_MESSAGES.rejected);
  if (typeof signed === "string") return signed;
  // Older extensions answer with a Buffer-like object.
  return btoa(String.fromCharCode(...new Uint8Array(signed as unknown as ArrayBufferLike)));
}

/** Signs a transaction, after checking Freighter is on the network the payment needs. */
export async function signPayment(
  xdr: string,
  networkPassphrase: string,
  address: string,
): Promise<string> {
  const current = await walletNetwork();
  if (current !== networkPassphrase) {
    throw new WalletError(
      "wrong_network",
      `Freighter is set to "${current}". Switch it to "${networkPassphrase}" and try again.`,
    );
  }
  const res = await withTimeout(
    signTransaction(xdr, { networkPassphrase, address }),
    USER_TIMEOUT_MS,
    walletError("timeout"),
  );
  if (res.error) throw fromFreighterError(res.error);
  if (!res.signedTxXdr) throw new WalletError("rejected", WALLET_MESSAGES.rejected);
  return res.signedTxXdr;
}
