import type { ReactNode } from "react";
import { AppShell } from "@/components/app-shell";
import { Providers } from "../providers";

/** Freelancer pages: client-rendered behind the wallet session. */
export default function AppLayout({ children }: { children: ReactNode }) {
  return (
    <Providers>
      <AppShell>{children}</AppShell>
    </Providers>
  );
}
