import type { ReactNode } from "react";
import { ExplorerProvider } from "@/lib/client/explorer";
import { getConfig } from "@/lib/config";

/** An invoice's pages link transactions to the configured explorers (EXPLORER_*_URL). */
export default function InvoiceLayout({ children }: { children: ReactNode }) {
  return <ExplorerProvider explorers={getConfig().explorers}>{children}</ExplorerProvider>;
}
