import { createHash } from "node:crypto";
import { type Keypair, Networks, TransactionBuilder } from "@stellar/stellar-sdk";
import type { BrowserContext } from "playwright-core";

/**
 * A Freighter stand-in for browser tests. @stellar/freighter-api talks to the extension with
 * window.postMessage: the page posts `{source: "FREIGHTER_EXTERNAL_MSG_REQUEST", messageId,
 * type, ...payload}` and the extension's content script answers with
 * `{source: "FREIGHTER_EXTERNAL_MSG_RESPONSE", messagedId, ...data}` (the library's spelling).
 * An init script plays the content script; the answers, and every signature, are made here in
 * Node with a real Keypair, so the app's own wallet code (lib/client/wallet.ts) runs unchanged
 * and the server verifies real signatures.
 *
 * "Not installed" is simply not calling `installFreighter`: the library's connection probe then
 * times out after 2 seconds and the app reports that Freighter was not found.
 */

export type FreighterOptions = {
  keypair: Keypair;
  /** The network the "extension" is set to; another one than the invoice's simulates a mistake. */
  networkPassphrase?: string;
  /** Horizon URL shown in the network details. */
  networkUrl?: string;
  /** "access": the user refuses to connect; "sign": the user rejects signing. */
  reject?: "sign" | "access" | null;
  /** How long the "popup" waits before the user approves a signature (to watch progress). */
  signDelayMs?: number;
  /** Signs with this key while reporting `keypair`'s address: a forged signature. */
  signingKeypair?: Keypair;
};

export type FreighterStandIn = {
  /** Every request type received, in order. */
  readonly calls: string[];
  /** Changes the behaviour for the next requests (e.g. stop rejecting). */
  set: (changes: Partial<FreighterOptions>) => void;
};

export const USER_REJECTED = { code: -4, message: "The user rejected this request." };

const BINDING = "__freighterStandIn";

/** Runs in the page: forwards the library's requests to Node and posts the answers back. */
const initScript = `(() => {
  window.addEventListener("message", async (event) => {
    if (event.source !== window) return;
    const data = event.data;
    if (!data || data.source !== "FREIGHTER_EXTERNAL_MSG_REQUEST") return;
    const { source, messageId, ...request } = data;
    let answer;
    try {
      answer = await window.${BINDING}(request);
    } catch (err) {
      answer = { apiError: { code: -1, message: String(err) } };
    }
    window.postMessage(
      { source: "FREIGHTER_EXTERNAL_MSG_RESPONSE", messagedId: messageId, ...answer },
      window.location.origin,
    );
  });
})();`;

export async function installFreighter(
  context: BrowserContext,
  options: FreighterOptions,
): Promise<FreighterStandIn> {
  let opts: FreighterOptions = { networkPassphrase: Networks.TESTNET, reject: null, ...options };
  const calls: string[] = [];
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  await context.exposeBinding(BINDING, async (_source, request: Record<string, any>) => {
    const type = String(request.type);
    calls.push(type);
    const kp = opts.keypair;
    const signer = opts.signingKeypair ?? kp;
    const passphrase = opts.networkPassphrase ?? Networks.TESTNET;
    const network = passphrase === Networks.PUBLIC ? "PUBLIC" : "TESTNET";
    switch (type) {
      case "REQUEST_CONNECTION_STATUS":
        return { isConnected: true };
      case "REQUEST_ALLOWED_STATUS":
        return { isAllowed: opts.reject !== "access" };
      case "SET_ALLOWED_STATUS":
        return opts.reject === "access"
          ? { isAllowed: false, apiError: USER_REJECTED }
          : { isAllowed: true };
      case "REQUEST_ACCESS":
        return opts.reject === "access"
          ? { publicKey: "", apiError: USER_REJECTED }
          : { publicKey: kp.publicKey() };
      case "REQUEST_PUBLIC_KEY":
        return { publicKey: opts.reject === "access" ? "" : kp.publicKey() };
      case "REQUEST_NETWORK_DETAILS":
        return {
          networkDetails: {
            network,
            networkName: network === "PUBLIC" ? "Main Net" : "Test Net",
            networkUrl: opts.networkUrl ?? "http://127.0.0.1",
            networkPassphrase: passphrase,
          },
        };
      case "REQUEST_NETWORK":
        return { network, networkPassphrase: passphrase };
      case "SUBMIT_BLOB": {
        if (opts.signDelayMs) await sleep(opts.signDelayMs);
        if (opts.reject === "sign") {
          return { signedBlob: "", signerAddress: "", apiError: USER_REJECTED };
        }
        // SEP-53: ed25519 over sha256("Stellar Signed Message:\n" + message), base64.
        const digest = createHash("sha256")
          .update(Buffer.from(`Stellar Signed Message:\n${String(request.blob)}`, "utf8"))
          .digest();
        return {
          signedBlob: signer.sign(digest).toString("base64"),
          signerAddress: kp.publicKey(),
        };
      }
      case "SUBMIT_TRANSACTION": {
        if (opts.signDelayMs) await sleep(opts.signDelayMs);
        if (opts.reject === "sign") {
          return { signedTransaction: "", signerAddress: "", apiError: USER_REJECTED };
        }
        // Like the extension: the transaction is hashed for the network Freighter is set to.
        const tx = TransactionBuilder.fromXDR(String(request.transactionXdr), passphrase);
        tx.sign(signer);
        return { signedTransaction: tx.toXDR(), signerAddress: kp.publicKey() };
      }
      default:
        return { apiError: { code: -1, message: `Unsupported request ${type}` } };
    }
  });
  await context.addInitScript({ content: initScript });
  return {
    calls,
    set: (changes) => {
      opts = { ...opts, ...changes };
    },
  };
}
