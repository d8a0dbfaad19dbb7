"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { downloadFile } from "@/lib/client/download";
import { useSession } from "@/lib/client/session";
import { useAction } from "@/lib/client/use-action";

// The invoice page's e-invoice offer (docs/decisions.md, E-invoices): "Download e-invoice
// (XRechnung)" and "(CII)" when GET /api/invoices/:id/einvoice can make them, else what to
// add, from that endpoint's own 400 details (the one place the rules live, lib/einvoice).

type Format = "xrechnung" | "cii";
const FORMATS: { format: Format; label: string }[] = [
  { format: "xrechnung", label: "XRechnung" },
  { format: "cii", label: "CII" },
];
type Check = { ok: true } | { ok: false; details: Record<string, string> } | null;

export function EInvoiceDownloads({
  id,
  invoiceNumber,
  status,
}: {
  id: string;
  invoiceNumber: string;
  status: string;
}) {
  const { session } = useSession();
  const token = session?.token;
  const { busy, notice, run } = useAction();
  const [checks, setChecks] = useState<Record<Format, Check>>({ xrechnung: null, cii: null });

  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again when the status moves (a draft sent)
  useEffect(() => {
    let live = true;
    for (const { format } of FORMATS) {
      fetch(`/api/invoices/${id}/einvoice?format=${format}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        cache: "no-store",
      })
        .then(async (res) => {
          const body = res.ok
            ? null
            : ((await res.json().catch(() => null)) as { details?: Record<string, string> } | null);
          const check: Check = res.ok ? { ok: true } : { ok: false, details: body?.details ?? {} };
          if (live) setChecks((c) => ({ ...c, [format]: check }));
        })
        .catch(() => {});
    }
    return () => {
      live = false;
    };
  }, [id, token, status]);

  const download = (format: Format) =>
    run(format, () =>
      downloadFile(
        `/api/invoices/${id}/einvoice?format=${format}`,
        token,
        `${invoiceNumber}${format === "xrechnung" ? "-xrechnung" : ""}.xml`,
      ),
    );

  const draft = status === "DRAFT";
  return (
    <div className="mt-3 space-y-2 text-sm" data-testid="einvoice-offer">
      <div className="flex flex-wrap gap-2">
        {FORMATS.map(({ format, label }) =>
          checks[format]?.ok ? (
            <Button
              key={format}
              variant="secondary"
              onClick={() => download(format)}
              disabled={!!busy}
              aria-busy={busy === format}
            >
              Download e-invoice ({label})
            </Button>
          ) : null,
        )}
      </div>
      {FORMATS.map(({ format, label }) => {
        const check = checks[format];
        if (!check || check.ok) return null;
        // A draft lacks its issue date by nature: say what else is missing before it is sent.
        const missing = Object.entries(check.details).filter(([field]) => field !== "issueDate");
        if (missing.length === 0) return null;
        return (
          <div key={format} data-testid={`einvoice-missing-${format}`}>
            <p className="text-slate-700 dark:text-slate-200">
              {draft
                ? `Before sending, for an e-invoice (${label}) add:`
                : `No e-invoice (${label}) yet: add`}
            </p>
            <ul className="ml-5 list-disc text-slate-600 dark:text-slate-300">
              {missing.map(([field, message]) => (
                <li key={field}>
                  {message}{" "}
                  {field.startsWith("profile.") ? (
                    <Link href="/settings/profile" className="underline">
                      in your profile
                    </Link>
                  ) : draft ? (
                    <Link href={`/invoices/${id}/edit`} className="underline">
                      on the invoice
                    </Link>
                  ) : (
                    <span>(set on the invoice before it is sent)</span>
                  )}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
      <span role="status" className="text-sm text-red-700 dark:text-red-300">
        {notice?.text}
      </span>
    </div>
  );
}
