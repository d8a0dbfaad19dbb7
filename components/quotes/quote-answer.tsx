"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";

type Words = {
  acceptTitle: string;
  acceptHint: string;
  nameLabel: string;
  accept: string;
  declineTitle: string;
  reasonLabel: string;
  decline: string;
  failed: string;
};

/**
 * The client's answer on /quote/<id> (docs/decisions.md, Quotes): accept by typing their name,
 * or decline with a reason. Posts to the public endpoints, then shows the page again (the
 * server renders the answer and the invoice link).
 */
export function QuoteAnswer({ quoteId, words }: { quoteId: string; words: Words }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState<"accept" | "decline" | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function answer(kind: "accept" | "decline") {
    setBusy(kind);
    setError(null);
    try {
      const res = await fetch(`/api/quotes/${quoteId}/${kind}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(kind === "accept" ? { name } : reason.trim() ? { reason } : {}),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as {
          error?: string;
          details?: Record<string, string>;
        } | null;
        const detail = body?.details ? Object.values(body.details)[0] : undefined;
        setError(words.failed.replace("{error}", detail ?? body?.error ?? String(res.status)));
        return;
      }
      router.refresh();
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="space-y-6">
      {error && <Alert>{error}</Alert>}
      <form
        aria-label={words.acceptTitle}
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          void answer("accept");
        }}
      >
        <h2 className="text-base font-semibold">{words.acceptTitle}</h2>
        <p className="text-sm text-slate-600 dark:text-slate-300">{words.acceptHint}</p>
        <label className="block text-sm font-medium" htmlFor="quote-accept-name">
          {words.nameLabel}
        </label>
        <input
          id="quote-accept-name"
          name="name"
          autoComplete="name"
          required
          maxLength={200}
          value={name}
          onChange={(e) => setName(e.target.value)}
          className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base dark:border-slate-600 dark:bg-slate-900"
        />
        <Button
          type="submit"
          disabled={busy !== null || !name.trim()}
          aria-busy={busy === "accept"}
        >
          {words.accept}
        </Button>
      </form>
      <form
        aria-label={words.declineTitle}
        className="space-y-3 border-t border-slate-200 pt-4 dark:border-slate-700"
        onSubmit={(e) => {
          e.preventDefault();
          void answer("decline");
        }}
      >
        <h2 className="text-base font-semibold">{words.declineTitle}</h2>
        <label className="block text-sm font-medium" htmlFor="quote-decline-reason">
          {words.reasonLabel}
        </label>
        <textarea
          id="quote-decline-reason"
          name="reason"
          maxLength={1000}
          rows={3}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base dark:border-slate-600 dark:bg-slate-900"
        />
        <Button
          type="submit"
          variant="secondary"
          disabled={busy !== null}
          aria-busy={busy === "decline"}
        >
          {words.decline}
        </Button>
      </form>
    </div>
  );
}
