"use client";

import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { useApi } from "@/lib/client/session";
import { useAction } from "@/lib/client/use-action";

/**
 * "Duplicate": POST /api/invoices/:id/duplicate makes a new draft (same client, lines and
 * pricing; no due date or number), then the editor opens on it.
 */
export function DuplicateButton({ id }: { id: string }) {
  const api = useApi();
  const router = useRouter();
  const { busy, notice, run } = useAction();
  const duplicate = () =>
    run("duplicate", async () => {
      const copy = await api<{ id: string }>(`/api/invoices/${id}/duplicate`, { method: "POST" });
      router.push(`/invoices/${copy.id}/edit`);
    });
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button variant="secondary" onClick={duplicate} disabled={busy !== null}>
        Duplicate
      </Button>
      {notice && (
        <span role="status" className="text-sm text-red-700 dark:text-red-300">
          {notice.text}
        </span>
      )}
    </span>
  );
}
