"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { WalletOptions } from "@/lib/client/wallets/catalog";

/**
 * Local ledgers only: gives the demo wallet 100 of the invoice's USDC or EURC (a trustline it
 * signs itself, then the local ledger's /local/fund; lib/client/wallets/demo.ts), so a newcomer
 * can pay a USDC invoice offline. Rendered only when the demo wallet is offered.
 */
export function DemoFunding({
  code,
  network,
  options,
}: {
  code: "USDC" | "EURC";
  network: "testnet" | "mainnet";
  options: WalletOptions;
}) {
  const [state, setState] = useState<"idle" | "busy" | "done" | string>("idle");
  const fund = async () => {
    setState("busy");
    try {
      const { fundDemoWallet } = await import("@/lib/client/wallet");
      await fundDemoWallet(options, network, code);
      setState("done");
    } catch (err) {
      setState(err instanceof Error ? err.message : `Could not add ${code}.`);
    }
  };
  return (
    <div className="text-sm">
      <Button variant="ghost" onClick={fund} disabled={state === "busy"}>
        {state === "busy" ? `Adding ${code}…` : `Add 100 ${code} to the demo wallet`}
      </Button>
      {state === "done" && <p role="status">The demo wallet holds 100 more {code}.</p>}
      {!["idle", "busy", "done"].includes(state) && <p role="alert">{state}</p>}
    </div>
  );
}
