import { connection } from "next/server";
import type { ReactNode } from "react";
import { AppShell } from "@/components/app-shell";
import { walletOptions } from "@/lib/client/wallets/options";
import { getConfig } from "@/lib/config";
import { Providers } from "../providers";

/**
 * Freelancer pages: client-rendered behind the wallet session. Rendered per request, so the
 * wallet pickers follow the running configuration (lib/client/wallets/options.ts).
 */
export default async function AppLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <Providers walletOptions={walletOptions(getConfig())}>
      <AppShell>{children}</AppShell>
    </Providers>
  );
}
