"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { useSession } from "@/lib/client/session";
import { shortAddress } from "@/lib/format";
import { SignInPanel } from "./auth/sign-in-panel";
import { Button } from "./ui/button";

const NAV = [
  { href: "/dashboard", label: "Dashboard" },
  { href: "/invoices", label: "Invoices" },
  { href: "/clients", label: "Clients" },
  { href: "/links", label: "Payment links" },
  { href: "/settings/webhooks", label: "Webhooks" },
  { href: "/settings/keys", label: "API keys" },
];

/** The freelancer's pages: navigation, the signed-in wallet, and sign-in when needed. */
export function AppShell({ children }: { children: ReactNode }) {
  const { session, ready, signOut } = useSession();
  const pathname = usePathname();
  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-4 px-4 py-3">
          <Link
            href="/dashboard"
            className="text-lg font-semibold text-indigo-700 dark:text-indigo-300"
          >
            Stellar Invoicing
          </Link>
          {session && (
            <>
              <MainNav pathname={pathname} />
              <div className="ml-auto flex items-center gap-3">
                <span
                  className="font-mono text-xs text-slate-600 dark:text-slate-300"
                  title={session.wallet}
                  data-testid="wallet"
                >
                  {shortAddress(session.wallet)}
                </span>
                <Button variant="secondary" onClick={() => signOut()}>
                  Sign out
                </Button>
                {/* Closed, the menu's button is hidden (one "Sign out" button for e2e/helpers). */}
                <details className="relative">
                  <summary className="cursor-pointer list-none text-sm text-slate-600 dark:text-slate-300">
                    More
                  </summary>
                  <div className="absolute right-0 z-10 mt-2 rounded border border-slate-200 bg-white p-2 shadow dark:border-slate-700 dark:bg-slate-900">
                    <Button variant="secondary" onClick={() => signOut({ everywhere: true })}>
                      Sign out everywhere
                    </Button>
                  </div>
                </details>
              </div>
            </>
          )}
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-8">
        {!ready ? (
          <p className="text-sm text-slate-500">Loading…</p>
        ) : session ? (
          children
        ) : (
          <SignInPanel />
        )}
      </main>
    </div>
  );
}

function MainNav({ pathname }: { pathname: string }) {
  return (
    <nav aria-label="Main" className="flex flex-1 flex-wrap gap-1">
      {NAV.map((item) => {
        const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={active ? "page" : undefined}
            className={`rounded-md px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${active ? "bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-200" : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"}`}
          >
            {item.label}
          </Link>
        );
      })}
    </nav>
  );
}
