"use client";

import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Muted } from "@/components/ui/page";
import { useSession } from "@/lib/client/session";
import { useAction } from "@/lib/client/use-action";

/** Connect Freighter and sign the login message. Never stuck: every failure ends in a message. */
export function SignInPanel({ onSignedIn }: { onSignedIn?: () => void }) {
  const { signIn } = useSession();
  const { busy, notice, run } = useAction();

  const connect = () =>
    run("sign-in", async () => {
      await signIn();
      onSignedIn?.();
    });

  return (
    <div className="mx-auto max-w-md space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <h1 className="text-xl font-semibold">Sign in with your Stellar wallet</h1>
      <Muted>
        No password: Freighter signs a one-time message that proves you own the wallet. Signing it
        sends no transaction and costs nothing.
      </Muted>
      <Button onClick={connect} disabled={busy !== null} className="w-full">
        {busy ? "Waiting for Freighter…" : "Connect Freighter"}
      </Button>
      {notice && <Alert>{notice.text}</Alert>}
    </div>
  );
}
