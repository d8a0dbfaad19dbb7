"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { type Session, useCan, useSession } from "@/lib/client/session";
import { shortAddress } from "@/lib/format";
import { SignInPanel } from "./auth/sign-in-panel";
import { BooksBar } from "./team/books-bar";
import { Button } from "./ui/button";

const NAV = [
  { href: "/dashboard", label: "Dashboard" },
  { href: "/invoices", label: "Invoices" },
  { href: "/quotes", label: "Quotes" },
  { href: "/clients", label: "Clients" },
  { href: "/links", label: "Payment links" },
  { href: "/recurring", label: "Recurring" },
  // The owner's settings: hidden while a team member has other books open.
  { href: "/settings/profile", label: "Profile", owner: true },
  { href: "/settings/webhooks", label: "Webhooks", owner: true },
  { href: "/settings/keys", label: "API keys", owner: true },
  { href: "/settings/team", label: "Team", owner: true },
];

const isActive = (pathname: string, href: string) =>
  pathname === href || pathname.startsWith(`${href}/`);

const focusRing =
  "focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2";

/**
 * The freelancer's pages: navigation, the signed-in wallet, and sign-in when needed. From the
 * `lg` breakpoint the navigation sits in one header row; below it (phones, 375 px) a "Menu"
 * button opens it as a panel under a one-line header (docs/decisions.md, Phone layout).
 */
export function AppShell({ children }: { children: ReactNode }) {
  const { session, ready } = useSession();
  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        {session ? (
          <SignedInHeader session={session} />
        ) : (
          <div className="mx-auto max-w-6xl px-4 py-3">
            <Brand />
          </div>
        )}
      </header>
      {session && <BooksBar session={session} />}
      <main className="mx-auto max-w-6xl px-4 py-6 break-words sm:py-8">
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

function Brand() {
  return (
    <Link
      href="/dashboard"
      className={`shrink-0 rounded-sm text-lg font-semibold text-indigo-700 dark:text-indigo-300 ${focusRing}`}
    >
      Stellar Invoicing
    </Link>
  );
}

function SignedInHeader({ session }: { session: Session }) {
  const { signOut } = useSession();
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  // Following a link closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation
  useEffect(() => setOpen(false), [pathname]);

  // Open: focus goes to the first link; Escape or a click outside closes it.
  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>("a, button")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);

  const wallet = (
    <span
      className="font-mono text-xs text-slate-600 dark:text-slate-300"
      title={session.books?.own.wallet ?? session.wallet}
      data-testid="wallet"
    >
      {shortAddress(session.books?.own.wallet ?? session.wallet)}
    </span>
  );

  return (
    <>
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3">
        <Brand />
        {/* lg and up: one row. */}
        <nav aria-label="Main" className="hidden flex-1 gap-1 lg:flex">
          <NavLinks pathname={pathname} />
        </nav>
        <div className="ml-auto hidden items-center gap-3 lg:flex">
          {wallet}
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
        {/* Below lg: the menu button. */}
        <button
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((o) => !o)}
          className={`ml-auto inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 lg:hidden dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800 ${focusRing}`}
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
            {open ? (
              <path d="M5.3 4.3 10 9l4.7-4.7 1 1L11 10l4.7 4.7-1 1L10 11l-4.7 4.7-1-1L9 10 4.3 5.3z" />
            ) : (
              <path d="M3 5h14v1.5H3zm0 4.25h14v1.5H3zM3 13.5h14V15H3z" />
            )}
          </svg>
          Menu
        </button>
      </div>
      <div
        id={menuId}
        ref={panel}
        hidden={!open}
        className="border-t border-slate-200 px-4 pt-2 pb-4 lg:hidden dark:border-slate-800"
      >
        {/* Rendered only while open: one wallet and one "Sign out" in the page otherwise. */}
        {open && (
          <>
            <nav aria-label="Main" className="flex flex-col gap-1">
              <NavLinks pathname={pathname} />
            </nav>
            <div className="mt-3 flex flex-wrap items-center gap-3 border-t border-slate-200 pt-3 dark:border-slate-800">
              {wallet}
              <Button variant="secondary" onClick={() => signOut()}>
                Sign out
              </Button>
              <Button variant="secondary" onClick={() => signOut({ everywhere: true })}>
                Sign out everywhere
              </Button>
            </div>
          </>
        )}
      </div>
    </>
  );
}

function NavLinks({ pathname }: { pathname: string }) {
  const can = useCan();
  return NAV.filter((item) => !("owner" in item) || can("owner")).map((item) => {
    const active = isActive(pathname, item.href);
    return (
      <Link
        key={item.href}
        href={item.href}
        aria-current={active ? "page" : undefined}
        className={`rounded-md px-3 py-2 text-sm font-medium ${focusRing} ${active ? "bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-200" : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"}`}
      >
        {item.label}
      </Link>
    );
  });
}
