"use client";

import { Alert } from "@/components/ui/card";
import { Muted } from "@/components/ui/page";
import { WalletPicker } from "@/components/wallet/wallet-picker";
import { useSession } from "@/lib/client/session";
import { useAction } from "@/lib/client/use-action";
import { offeredWallets, type WalletId } from "@/lib/client/wallets/catalog";

/**
 * Pick a wallet, connect it and sign the login message (SEP-53). Wallets that cannot sign a
 * message are listed but cannot be picked. Never stuck: every failure ends in a message.
 */
export function SignInPanel({ onSignedIn }: { onSignedIn?: () => void }) {
  const { signIn, walletOptions } = useSession();
  const { busy, notice, run } = useAction();
  const wallets = offeredWallets(walletOptions, "any");

  const connect = (id: WalletId) =>
    run(id, async () => {
      await signIn(id);
      onSignedIn?.();
    });

  return (
    <div className="mx-auto max-w-md space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <h1 className="text-xl font-semibold">Sign in with your Stellar wallet</h1>
      <Muted>
        No password: your wallet signs a one-time message that proves you own it. Signing it sends
        no transaction and costs nothing.
      </Muted>
      <WalletPicker
        wallets={wallets}
        purpose="sign-in"
        onPick={connect}
        disabled={busy !== null}
        busy={busy as WalletId | null}
      />
      {notice && <Alert>{notice.text}</Alert>}
    </div>
  );
}
