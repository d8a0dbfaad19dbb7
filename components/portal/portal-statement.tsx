"use client";

import { useEffect, useState } from "react";
import { StatementFigures, type StatementLabels } from "@/components/clients/statement-figures";
import { buttonClass } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { formatAmount } from "@/lib/format";
import type { Language } from "@/lib/i18n";
import { localizeAmount } from "@/lib/i18n/format";
import { portalStatementQuerySchema } from "@/lib/schemas/portal";
import type { PortalStatement, Translate } from "./types";

/** The first of this year to today (UTC days, the statement's). */
function thisYear(): { from: string; to: string } {
  const today = new Date().toISOString().slice(0, 10);
  return { from: `${today.slice(0, 4)}-01-01`, to: today };
}

/**
 * The client's statement of account in the portal: a period, the figures per currency as
 * GET /api/portal/statement answers them (the freelancer's own statement of this client), and
 * the PDF and CSV downloads, in the client's language.
 */
export function PortalStatementCard({ t, lang }: { t: Translate; lang: Language }) {
  const [period, setPeriod] = useState(thisYear);
  const [data, setData] = useState<PortalStatement | null>(null);
  const [error, setError] = useState<string | null>(null);
  const checked = portalStatementQuerySchema.safeParse(period);
  const invalid: Record<string, string> = {};
  for (const issue of checked.error?.issues ?? []) invalid[String(issue.path[0])] ??= issue.message;
  const path = `/api/portal/statement?from=${period.from}&to=${period.to}`;

  useEffect(() => {
    if (!checked.success) return;
    let live = true;
    fetch(path, { cache: "no-store" })
      .then(async (res) => {
        if (!live) return;
        if (!res.ok) return setError(t("portal.failed", { error: String(res.status) }));
        setError(null);
        setData((await res.json()) as PortalStatement);
      })
      .catch(() => live && setError(t("portal.failed", { error: "network" })));
    return () => {
      live = false;
    };
  }, [path, checked.success, t]);

  const labels: StatementLabels = {
    opening: t("statement.opening"),
    invoiced: t("statement.invoiced"),
    paid: t("statement.paid"),
    refunded: t("statement.refunded"),
    credited: t("statement.credited"),
    closing: t("statement.closing"),
  };

  return (
    <Card title={t("statement.title")} className="min-w-0">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field
          label={t("portal.from")}
          type="date"
          value={period.from}
          error={invalid.from}
          onChange={(e) => setPeriod((p) => ({ ...p, from: e.target.value }))}
        />
        <Field
          label={t("portal.to")}
          type="date"
          value={period.to}
          error={invalid.to}
          onChange={(e) => setPeriod((p) => ({ ...p, to: e.target.value }))}
        />
      </div>
      {error && <Alert>{error}</Alert>}
      {checked.success && data && data.currencies.length === 0 && (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{t("statement.empty")}</p>
      )}
      {checked.success && data && data.currencies.length > 0 && (
        <StatementFigures
          currencies={data.currencies}
          labels={labels}
          money={(v, unit) => localizeAmount(formatAmount(v, unit), lang)}
        />
      )}
      {checked.success && (
        <div className="mt-4 flex flex-wrap gap-2">
          <a href={`${path}&format=pdf`} className={buttonClass("secondary")} download>
            {t("portal.downloadPdf")}
          </a>
          <a href={`${path}&format=csv`} className={buttonClass("secondary")} download>
            {t("portal.downloadCsv")}
          </a>
        </div>
      )}
    </Card>
  );
}
