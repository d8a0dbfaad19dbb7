"use client";

import { useState } from "react";
import { errorMessage, useSession } from "@/lib/client/session";
import { Button } from "../ui/button";
import { Alert } from "../ui/card";

/** Connect Freighter and sign the login message. Never stuck: every failure ends in a message. */
export function SignInPanel({ onSignedIn }: { onSignedIn?: () => void }) {
  const { signIn } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    setBusy(true);
    setError(null);
    try {
      await signIn();
      onSignedIn?.();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mx-auto max-w-md space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <h1 className="text-xl font-semibold">Sign in with your Stellar wallet</h1>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        No password: Freighter signs a one-time message that proves you own the wallet. Signing it
        sends no transaction and costs nothing.
      </p>
      <Button onClick={run} disabled={busy} className="w-full">
        {busy ? "Waiting for Freighter…" : "Connect Freighter"}
      </Button>
      {error && <Alert>{error}</Alert>}
    </div>
  );
}
