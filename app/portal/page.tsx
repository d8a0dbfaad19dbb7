import type { Metadata } from "next";
import { PortalApp } from "@/components/portal/portal-app";
import { walletOptions } from "@/lib/client/wallets/options";
import { getConfig } from "@/lib/config";

/**
 * The client portal, {APP_URL}/portal (docs/decisions.md, Client portal): signed out, the
 * sign-in forms (emailed link, paying wallet); signed in (the `portal_session` cookie), one
 * freelancer's documents for one client and their statement. The browser reads /api/portal.
 */
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Client portal",
  robots: { index: false, follow: false },
};

type PageProps = { searchParams: Promise<{ link?: string }> };

export default async function PortalPage({ searchParams }: PageProps) {
  const { link } = await searchParams;
  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div className="mx-auto max-w-5xl px-4 py-3 text-sm font-semibold text-indigo-700 dark:text-indigo-300">
          Stellar Invoicing
        </div>
      </header>
      <PortalApp expired={link === "expired"} walletOptions={walletOptions(getConfig())} />
    </div>
  );
}
