"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useSession } from "@/lib/client/session";

/** GET /api/invoices/:id/pdf with the bearer token, saved through a blob URL. */
export function DownloadPdfButton({ id, invoiceNumber }: { id: string; invoiceNumber: string }) {
  const { session } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/invoices/${id}/pdf`, {
        headers: session ? { authorization: `Bearer ${session.token}` } : {},
        cache: "no-store",
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: string } | null;
        throw new Error(body?.error ?? `Download failed (${res.status})`);
      }
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = `${invoiceNumber}.pdf`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      setError(
        err instanceof TypeError
          ? "The service could not be reached. Check your connection and try again."
          : err instanceof Error
            ? err.message
            : "The PDF could not be downloaded.",
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button variant="secondary" onClick={download} aria-busy={busy} disabled={busy}>
        Download PDF
      </Button>
      <span role="status" className="text-sm text-red-700 dark:text-red-300">
        {error}
      </span>
    </span>
  );
}
