"use client";

import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { WalletPicker } from "@/components/wallet/wallet-picker";
import { connectWallet, signLoginMessage } from "@/lib/client/wallet";
import { offeredWallets, type WalletId, type WalletOptions } from "@/lib/client/wallets/catalog";
import type { Translate } from "./types";

type Choice = { ownerWallet: string; clientEmail: string; business: string };

async function postJson(path: string, body: unknown) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  return { ok: res.ok, status: res.status, data };
}

const errorText = (data: Record<string, unknown> | null, status: number) => {
  const details = data?.details as Record<string, string> | undefined;
  return (details && Object.values(details)[0]) || (data?.error as string) || String(status);
};

/**
 * Signed out: "Send me a sign-in link" (POST /api/portal/link, the same answer for every
 * address) and "Sign in with a wallet" (a signed nonce, POST /api/portal/wallet-session; when
 * the wallet paid several accounts, the list to pick from).
 */
export function PortalSignIn({
  t,
  expired,
  walletOptions,
  onSignedIn,
}: {
  t: Translate;
  expired: boolean;
  walletOptions: WalletOptions;
  onSignedIn: () => void;
}) {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [choices, setChoices] = useState<{ pickToken: string; list: Choice[] } | null>(null);
  const wallets = offeredWallets(walletOptions, "any");

  async function sendLink(e: FormEvent) {
    e.preventDefault();
    setBusy("email");
    setError(null);
    try {
      const r = await postJson("/api/portal/link", { email });
      if (r.ok) setSent(true);
      else setError(t("portal.failed", { error: errorText(r.data, r.status) }));
    } catch {
      setError(t("portal.failed", { error: "network" }));
    } finally {
      setBusy(null);
    }
  }

  async function withWallet(id: WalletId) {
    setBusy(id);
    setError(null);
    try {
      const wallet = await connectWallet(id, walletOptions);
      const nonce = await postJson("/api/auth/nonce", { walletAddress: wallet });
      if (!nonce.ok) throw new Error(errorText(nonce.data, nonce.status));
      const signature = await signLoginMessage(
        String(nonce.data?.message),
        wallet,
        id,
        walletOptions,
      );
      const r = await postJson("/api/portal/wallet-session", {
        walletAddress: wallet,
        nonce: nonce.data?.nonce,
        signature,
      });
      if (!r.ok) throw new Error(errorText(r.data, r.status));
      if (r.data?.status === "choose") {
        setChoices({ pickToken: String(r.data.pickToken), list: r.data.choices as Choice[] });
      } else onSignedIn();
    } catch (err) {
      setError(t("portal.failed", { error: err instanceof Error ? err.message : String(err) }));
    } finally {
      setBusy(null);
    }
  }

  async function pick(c: Choice) {
    if (!choices) return;
    setBusy(`${c.ownerWallet} ${c.clientEmail}`);
    const r = await postJson("/api/portal/wallet-session", {
      pickToken: choices.pickToken,
      ownerWallet: c.ownerWallet,
      clientEmail: c.clientEmail,
    }).finally(() => setBusy(null));
    if (r.ok) onSignedIn();
    else setError(t("portal.failed", { error: errorText(r.data, r.status) }));
  }

  return (
    <div className="mx-auto max-w-xl space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("portal.signInHeading")}</h1>
      {expired && <Alert kind="info">{t("portal.expired")}</Alert>}
      {error && <Alert>{error}</Alert>}
      <Card>
        <form className="space-y-3" onSubmit={sendLink} aria-label={t("portal.sendLink")}>
          <p className="text-sm text-slate-700 dark:text-slate-200">{t("portal.signInIntro")}</p>
          <Field
            label={t("portal.emailLabel")}
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setSent(false);
            }}
          />
          <Button type="submit" disabled={busy !== null}>
            {t("portal.sendLink")}
          </Button>
          {sent && <Alert kind="success">{t("portal.linkSent")}</Alert>}
        </form>
      </Card>
      <Card title={t("portal.walletHeading")}>
        <p className="mb-3 text-sm text-slate-700 dark:text-slate-200">{t("portal.walletIntro")}</p>
        {choices ? (
          <div className="space-y-2">
            <p className="text-sm font-medium">{t("portal.choose")}</p>
            <ul className="space-y-2">
              {choices.list.map((c) => (
                <li key={`${c.ownerWallet} ${c.clientEmail}`}>
                  <Button
                    variant="secondary"
                    className="w-full justify-start text-left [overflow-wrap:anywhere]"
                    disabled={busy !== null}
                    onClick={() => pick(c)}
                  >
                    {c.business} · {c.clientEmail}
                  </Button>
                </li>
              ))}
            </ul>
          </div>
        ) : (
          <WalletPicker
            wallets={wallets}
            purpose="sign-in"
            onPick={withWallet}
            disabled={busy !== null}
            busy={busy as WalletId | null}
          />
        )}
      </Card>
    </div>
  );
}
