import { createHash } from "node:crypto";
import { Keypair } from "@stellar/stellar-sdk";

export type SignMode = { digest: "raw" | "sep53"; encoding: "hex" | "base64" };

/** Signs like a wallet would: the message bytes, or SEP-53 (what Freighter produces). */
export function signMessage(kp: Keypair, message: string, mode: SignMode): string {
  const payload =
    mode.digest === "raw"
      ? Buffer.from(message, "utf8")
      : createHash("sha256")
          .update(Buffer.from(`Stellar Signed Message:\n${message}`, "utf8"))
          .digest();
  const sig = kp.sign(payload);
  return mode.encoding === "hex" ? sig.toString("hex") : sig.toString("base64");
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null), headers: res.headers };
}

export async function getJson(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: await res.json().catch(() => null), headers: res.headers };
}

export async function requestNonce(baseUrl: string, wallet: string) {
  const res = await postJson(`${baseUrl}/api/auth/nonce`, { walletAddress: wallet });
  if (res.status !== 200) throw new Error(`nonce: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { nonce: string; message: string; expiresIn: number };
}

/** Full sign-in: nonce, signature, session. Returns the bearer token. */
export async function signIn(
  baseUrl: string,
  kp: Keypair = Keypair.random(),
  mode: SignMode = { digest: "sep53", encoding: "base64" },
): Promise<{ token: string; wallet: string; keypair: Keypair }> {
  const { nonce, message } = await requestNonce(baseUrl, kp.publicKey());
  const res = await postJson(`${baseUrl}/api/auth/session`, {
    walletAddress: kp.publicKey(),
    nonce,
    signature: signMessage(kp, message, mode),
  });
  if (res.status !== 200) throw new Error(`session: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.token, wallet: kp.publicKey(), keypair: kp };
}
