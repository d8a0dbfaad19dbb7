import { createHash } from "node:crypto";
import { type Keypair, TransactionBuilder } from "@stellar/stellar-sdk";
import type { BrowserContext } from "playwright-core";

/**
 * A Hana stand-in for browser tests. Stellar Wallets Kit's Hana module
 * (@creit.tech/stellar-wallets-kit/modules/hana) talks to the extension through the object it
 * injects, `window.hanaWallet.stellar`: `getPublicKey()`, `signTransaction({xdr,
 * accountToSign, networkPassphrase})` and `signMessage({message, accountToSign})`, each a
 * promise. An init script injects that object; every answer, and every signature, is made here
 * in Node with a real Keypair, so the kit's real module code runs in the page and the server
 * verifies real signatures. "Not installed" is not calling `installHana`.
 */
export type HanaOptions = {
  keypair: Keypair;
  /** "sign": the user rejects signing (Hana rejects the promise). */
  reject?: "sign" | null;
};

export type HanaStandIn = { readonly calls: string[] };

const BINDING = "__hanaStandIn";

const initScript = `(() => {
  const call = (method, params) =>
    window.${BINDING}({ method, params }).then((r) => {
      if (r && r.error) throw new Error(r.error);
      return r.value;
    });
  window.hanaWallet = {
    stellar: {
      getPublicKey: () => call("getPublicKey", {}),
      signTransaction: (params) => call("signTransaction", params),
      signMessage: (params) => call("signMessage", params),
      signAuthEntry: () => Promise.reject(new Error("not supported")),
    },
  };
})();`;

export async function installHana(
  context: BrowserContext,
  options: HanaOptions,
): Promise<HanaStandIn> {
  const calls: string[] = [];
  await context.exposeBinding(BINDING, async (_source, request: Record<string, any>) => {
    const method = String(request.method);
    const params = request.params ?? {};
    calls.push(method);
    const kp = options.keypair;
    if (method === "getPublicKey") return { value: kp.publicKey() };
    if (options.reject === "sign") return { error: "User declined the request" };
    if (method === "signMessage") {
      // SEP-53: ed25519 over sha256("Stellar Signed Message:\n" + message), base64.
      const digest = createHash("sha256")
        .update(Buffer.from(`Stellar Signed Message:\n${String(params.message)}`, "utf8"))
        .digest();
      return { value: kp.sign(digest).toString("base64") };
    }
    if (method === "signTransaction") {
      const tx = TransactionBuilder.fromXDR(String(params.xdr), String(params.networkPassphrase));
      tx.sign(kp);
      return { value: tx.toXDR() };
    }
    return { error: `Unsupported ${method}` };
  });
  await context.addInitScript({ content: initScript });
  return { calls };
}
