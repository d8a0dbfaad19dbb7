"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Muted } from "@/components/ui/page";
import { downloadFile } from "@/lib/client/download";
import { useSession } from "@/lib/client/session";
import { useAction } from "@/lib/client/use-action";
import { useResource } from "@/lib/client/use-resource";
import { formatAmount } from "@/lib/format";
import { statementQuerySchema, type statementResponse } from "@/lib/schemas/statements";
import type { FormB } from "@/lib/schemas/wire";
import { ENGLISH_STATEMENT_LABELS, StatementFigures } from "./statement-figures";

type Statement = FormB<typeof statementResponse>;
type Format = "pdf" | "csv" | "json";
const DOWNLOADS: { format: Format; label: string }[] = [
  { format: "pdf", label: "PDF" },
  { format: "csv", label: "CSV" },
  { format: "json", label: "JSON" },
];

/** Today and the first of its month as YYYY-MM-DD (UTC, the statement's days). */
function thisMonth(): { from: string; to: string } {
  const today = new Date().toISOString().slice(0, 10);
  return { from: `${today.slice(0, 8)}01`, to: today };
}

/**
 * The client's statement of account (docs/decisions.md, Statements): the period, the figures
 * per currency as GET /api/clients/:id/statement answers them, and the three downloads. The
 * period is checked by the API (its 400 names `from` or `to`, shown beside the field).
 */
export function StatementCard({ clientId }: { clientId: string }) {
  const { session } = useSession();
  const [period, setPeriod] = useState(thisMonth);
  // The API's own query schema: a bad or reversed period is shown beside its field, not sent.
  const checked = statementQuerySchema.safeParse(period);
  const invalid: Record<string, string> = {};
  for (const issue of checked.error?.issues ?? []) invalid[String(issue.path[0])] ??= issue.message;
  const path = `/api/clients/${clientId}/statement?from=${period.from}&to=${period.to}`;
  const { data, error, loading, api } = useResource<Statement>(checked.success ? path : null);
  const { busy, notice, details, run } = useAction();
  const fieldError = (name: "from" | "to") => invalid[name] ?? details?.[name];

  const send = () =>
    run("send", async () => {
      const r = await api<{ to: string }>(`/api/clients/${clientId}/statement/send`, {
        method: "POST",
        body: period,
      });
      return `Statement emailed to ${r.to}.`;
    });

  const download = (format: Format) =>
    run(format, () =>
      downloadFile(
        format === "json" ? path : `${path}&format=${format}`,
        session?.token,
        `statement_${period.from}_${period.to}.${format}`,
      ),
    );

  return (
    <Card title="Statement" className="min-w-0">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field
          label="From"
          type="date"
          value={period.from}
          error={fieldError("from")}
          onChange={(e) => setPeriod((p) => ({ ...p, from: e.target.value }))}
        />
        <Field
          label="To"
          type="date"
          value={period.to}
          error={fieldError("to")}
          onChange={(e) => setPeriod((p) => ({ ...p, to: e.target.value }))}
        />
      </div>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {error && <Alert>{error}</Alert>}
      {loading && !data && <Muted>Loading the statement…</Muted>}
      {checked.success && data && data.currencies.length === 0 && (
        <Muted className="mt-3">Nothing on this client's account in the period.</Muted>
      )}
      {checked.success && data && data.currencies.length > 0 && (
        <StatementFigures
          currencies={data.currencies}
          labels={ENGLISH_STATEMENT_LABELS}
          money={formatAmount}
        />
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        {DOWNLOADS.map(({ format, label }) => (
          <Button
            key={format}
            variant="secondary"
            onClick={() => download(format)}
            disabled={!!busy || !checked.success}
            aria-busy={busy === format}
          >
            Download {label}
          </Button>
        ))}
        <Button onClick={send} disabled={!!busy || !checked.success} aria-busy={busy === "send"}>
          Send statement
        </Button>
      </div>
    </Card>
  );
}
