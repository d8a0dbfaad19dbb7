"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { downloadFile } from "@/lib/client/download";
import { useSession } from "@/lib/client/session";
import { useAction } from "@/lib/client/use-action";
import type { NetworkName } from "@/lib/stellar/networks";

const day = (d: Date) => d.toISOString().slice(0, 10);
/** The day after `value` (yyyy-mm-dd): the API's `to` is exclusive, the picker's last day is not. */
const nextDay = (value: string) => day(new Date(Date.parse(`${value}T00:00:00Z`) + 86_400_000));

/**
 * The accounting exports (GET /api/exports/payments.csv and invoices.csv) for a range of UTC
 * days on the dashboard's network, downloaded with the session's token.
 */
export function ExportPanel({ network }: { network: NetworkName }) {
  const { session } = useSession();
  const { busy, notice, details, run } = useAction();
  const today = new Date();
  const [from, setFrom] = useState(day(new Date(Date.UTC(today.getUTCFullYear(), 0, 1))));
  const [to, setTo] = useState(day(today));

  const exportCsv = (what: "payments" | "invoices") =>
    run(what, async () => {
      const query = new URLSearchParams({ network });
      if (from) query.set("from", from);
      if (to) query.set("to", nextDay(to));
      const name = [what, from, to, network].filter(Boolean).join("_");
      await downloadFile(`/api/exports/${what}.csv?${query}`, session?.token, `${name}.csv`);
    });

  const range = [
    { name: "from", label: "From", value: from, set: setFrom, bounds: { max: to || undefined } },
    {
      name: "to",
      label: "To (included)",
      value: to,
      set: setTo,
      bounds: { min: from || undefined },
    },
  ];

  return (
    <Card title="Export for your accountant">
      <div className="flex flex-wrap items-end gap-3">
        {range.map((r) => (
          <Field
            key={r.name}
            label={r.label}
            type="date"
            value={r.value}
            {...r.bounds}
            onChange={(e) => r.set(e.target.value)}
            error={details[r.name]}
          />
        ))}
        {(["payments", "invoices"] as const).map((what) => (
          <Button
            key={what}
            variant="secondary"
            onClick={() => exportCsv(what)}
            aria-busy={busy === what}
            disabled={!!busy}
          >
            Export {what} (CSV)
          </Button>
        ))}
      </div>
      <p role="status" className="mt-2 text-sm text-red-700 dark:text-red-300">
        {notice?.kind === "error" ? notice.text : null}
      </p>
    </Card>
  );
}
