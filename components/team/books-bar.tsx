"use client";

import { useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/client/api";
import { errorMessage, type Session, useSession } from "@/lib/client/session";
import { shortAddress } from "@/lib/format";
import type { TeamBooksBody as Books } from "@/lib/schemas/team";

const OWN = "own";
const roleWord = (role: string) => (role === "accountant" ? "accountant" : "member");

/**
 * The books picker and banner (docs/decisions.md, Team access): a wallet invited to other
 * freelancers' books picks which books it is looking at ("Your books" or "<business name>
 * (accountant)"); switching opens them through POST /api/team/books/:owner/session with the
 * wallet's own token. While another wallet's books are open, a banner says whose and in which
 * role. Nothing shows for a wallet with no books.
 */
export function BooksBar({ session }: { session: Session }) {
  const { openBooks, ownBooks } = useSession();
  const ownToken = session.books?.own.token ?? session.token;
  const [books, setBooks] = useState<Books[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  useEffect(() => {
    let live = true;
    api<Books[]>("/api/team/books", { token: ownToken }).then(
      (list) => live && setBooks(list.filter((b) => b.state !== "expired")),
      () => live && setBooks([]),
    );
    return () => {
      live = false;
    };
  }, [ownToken]);

  const open = session.books;
  if (!open && (!books || books.length === 0)) return null;

  const pick = async (value: string) => {
    setError(null);
    if (value === OWN) return ownBooks();
    const chosen = books?.find((b) => b.owner === value);
    setBusy(true);
    try {
      await openBooks(value, chosen?.businessName ?? null);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const name = (b: { businessName?: string | null; name?: string | null; owner: string }) =>
    b.businessName ?? b.name ?? shortAddress(b.owner);

  return (
    <div
      className={
        open
          ? "border-b border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950"
          : "border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
      }
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-3 px-4 py-2 text-sm">
        {open && (
          <p
            role="status"
            data-testid="books-banner"
            className="min-w-0 font-medium text-amber-900 dark:text-amber-100"
          >
            You are in the books of {name(open)} ({shortAddress(open.owner)}) as{" "}
            {roleWord(open.role) === "accountant" ? "their accountant: read only" : "a team member"}
            .
          </p>
        )}
        <div className="flex items-center gap-2 sm:ml-auto">
          <label htmlFor={id} className="text-slate-700 dark:text-slate-200">
            Books
          </label>
          <select
            id={id}
            data-testid="books-picker"
            disabled={busy}
            value={open?.owner ?? OWN}
            onChange={(e) => pick(e.target.value)}
            className="max-w-[14rem] rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100"
          >
            <option value={OWN}>Your books</option>
            {(books ?? []).map((b) => (
              <option key={b.owner} value={b.owner}>
                {name(b)} ({roleWord(b.role)})
              </option>
            ))}
            {open && !books?.some((b) => b.owner === open.owner) && (
              <option value={open.owner}>
                {name(open)} ({roleWord(open.role)})
              </option>
            )}
          </select>
          {open && (
            <Button variant="secondary" onClick={() => ownBooks()}>
              Back to my books
            </Button>
          )}
        </div>
        {error && (
          <p role="alert" className="w-full text-red-700 dark:text-red-300">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
