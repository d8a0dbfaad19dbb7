"use client";

import type { ReactNode } from "react";
import { SessionProvider } from "@/lib/client/session";
import type { WalletOptions } from "@/lib/client/wallets/catalog";

export function Providers({
  children,
  walletOptions,
}: {
  children: ReactNode;
  walletOptions: WalletOptions;
}) {
  return <SessionProvider walletOptions={walletOptions}>{children}</SessionProvider>;
}
