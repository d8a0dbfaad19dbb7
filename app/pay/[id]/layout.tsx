import type { ReactNode } from "react";
import { ExplorerProvider } from "@/lib/client/explorer";
import { getConfig } from "@/lib/config";

/** The checkout links transactions to the configured explorers (EXPLORER_*_URL). */
export default function CheckoutLayout({ children }: { children: ReactNode }) {
  return <ExplorerProvider explorers={getConfig().explorers}>{children}</ExplorerProvider>;
}
