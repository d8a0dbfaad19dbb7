"use client";

import { Button } from "@/components/ui/button";
import { ApiError, UNREACHABLE } from "@/lib/client/api";
import { useSession } from "@/lib/client/session";
import { useAction } from "@/lib/client/use-action";

/** GET /api/invoices/:id/pdf with the bearer token, saved through a blob URL. */
export function DownloadPdfButton({ id, invoiceNumber }: { id: string; invoiceNumber: string }) {
  const { session } = useSession();
  const { busy, notice, run } = useAction();

  const download = () =>
    run("download", async () => {
      const res = await fetch(`/api/invoices/${id}/pdf`, {
        headers: session ? { authorization: `Bearer ${session.token}` } : {},
        cache: "no-store",
      }).catch(() => {
        throw new ApiError(UNREACHABLE, 0, null);
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: string } | null;
        throw new ApiError(body?.error ?? `Download failed (${res.status})`, res.status, body);
      }
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = `${invoiceNumber}.pdf`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    });

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button variant="secondary" onClick={download} aria-busy={busy !== null} disabled={!!busy}>
        Download PDF
      </Button>
      <span role="status" className="text-sm text-red-700 dark:text-red-300">
        {notice?.text}
      </span>
    </span>
  );
}
