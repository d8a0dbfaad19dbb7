"use client";

import { Button } from "@/components/ui/button";
import { downloadFile } from "@/lib/client/download";
import { useSession } from "@/lib/client/session";
import { useAction } from "@/lib/client/use-action";

/** GET /api/invoices/:id/pdf with the bearer token, saved through a blob URL (lib/client/download.ts). */
export function DownloadPdfButton({ id, invoiceNumber }: { id: string; invoiceNumber: string }) {
  const { session } = useSession();
  const { busy, notice, run } = useAction();

  const download = () =>
    run("download", () =>
      downloadFile(`/api/invoices/${id}/pdf`, session?.token, `${invoiceNumber}.pdf`),
    );

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
