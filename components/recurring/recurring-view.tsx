"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, StatusBadge } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState, Loading, Muted, PageHeader } from "@/components/ui/page";
import { ACTIONS_COLUMN, Table } from "@/components/ui/table";
import { useAction, useRemoval } from "@/lib/client/use-action";
import { useResource } from "@/lib/client/use-resource";
import { formatAmount, formatDate, stateWords } from "@/lib/format";
import { type RecurringBody, RecurringForm } from "./recurring-form";
import type { Recurring, RecurringDetail } from "./types";

const cell = "px-3 py-2 align-middle text-slate-800 dark:text-slate-200";
const COLUMNS = ["Client", "Schedule", "Next invoice", "Made", "Status", ACTIONS_COLUMN];
const EVERY: Record<string, string> = {
  week: "week",
  month: "month",
  quarter: "quarter",
  year: "year",
};

const scheduleText = (r: Recurring) =>
  `Every ${r.intervalCount > 1 ? `${r.intervalCount} ${EVERY[r.interval]}s` : EVERY[r.interval]} from ${formatDate(r.startDate)}${r.count ? `, ${r.count} in all` : r.endDate ? ` until ${formatDate(r.endDate)}` : ""}`;

const clientOf = (r: Recurring) => String(r.template.clientName ?? "");

/** Recurring invoices: create, pause, resume, delete, and the invoices each made. */
export function RecurringView() {
  const { data, setData, error, loading, api } = useResource<Recurring[]>("/api/recurring");
  const [today] = useState(() => new Date().toISOString().slice(0, 10));
  const [open, setOpen] = useState<RecurringDetail | null>(null);
  const action = useAction();
  const { busy, notice, details, run } = action;
  const refresh = async () => setData(await api<Recurring[]>("/api/recurring"));
  const removal = useRemoval(action, async (r: Recurring) => {
    await api(`/api/recurring/${r.id}`, { method: "DELETE" });
    await refresh();
    if (open?.id === r.id) setOpen(null);
    return `Deleted the recurring invoice for ${clientOf(r)}. The invoices it made stay.`;
  });

  const save = (body: RecurringBody) =>
    run("save", async () => {
      const made = await api<Recurring>("/api/recurring", { method: "POST", body });
      await refresh();
      return `Created: the first invoice is made on ${formatDate(made.nextDate ?? made.startDate)}.`;
    });

  const toggle = (r: Recurring) =>
    run("toggle", async () => {
      const verb = r.status === "paused" ? "resume" : "pause";
      await api(`/api/recurring/${r.id}/${verb}`, { method: "POST" });
      await refresh();
      return verb === "pause" ? "Paused: no invoices until you resume." : "Resumed.";
    });

  const show = (r: Recurring) =>
    run("show", async () => setOpen(await api<RecurringDetail>(`/api/recurring/${r.id}`)));

  return (
    <div className="space-y-6">
      <PageHeader
        title="Recurring invoices"
        description="A retainer or a subscription: the same invoice made on each date, sent to your client."
      />
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <RecurringForm today={today} onSave={save} details={details} busy={busy === "save"} />
        <div className="space-y-6 lg:order-1 lg:col-span-2">
          {error && <Alert>{error}</Alert>}
          {!data && loading && <Loading what="recurring invoices" />}
          {data && data.length === 0 && (
            <EmptyState>No recurring invoices yet. Create one with the form.</EmptyState>
          )}
          {data && data.length > 0 && (
            <Table
              caption="Recurring invoices, newest first"
              stacked
              columns={COLUMNS}
              headClassName="bg-slate-50 dark:bg-slate-800"
              className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900"
            >
              {data.map((r) => (
                <tr key={r.id}>
                  <th scope="row" className={`${cell} text-left font-medium`}>
                    {clientOf(r)}
                  </th>
                  <td className={cell}>{scheduleText(r)}</td>
                  <td className={cell}>{formatDate(r.nextDate)}</td>
                  <td className={cell}>{r.invoicesCreated}</td>
                  <td className={cell}>
                    {stateWords(r.status)}
                    {r.lastRefusal && (
                      <span className="block text-amber-800 dark:text-amber-300">
                        Refused: see Invoices
                      </span>
                    )}
                  </td>
                  <td className={`${cell} whitespace-nowrap text-right`}>
                    <Button variant="ghost" onClick={() => show(r)}>
                      Invoices
                    </Button>
                    {r.status !== "ended" && (
                      <Button
                        variant="ghost"
                        disabled={busy === "toggle"}
                        onClick={() => toggle(r)}
                      >
                        {r.status === "paused" ? "Resume" : "Pause"}
                      </Button>
                    )}
                    <Button
                      variant="ghost"
                      onClick={() => removal.ask(r)}
                      className="text-red-700 dark:text-red-300"
                    >
                      Delete
                    </Button>
                  </td>
                </tr>
              ))}
            </Table>
          )}
          {open && <MadeInvoices detail={open} />}
        </div>
      </div>
      <ConfirmDialog
        open={removal.target !== null}
        title="Delete this recurring invoice?"
        confirmLabel="Confirm deletion"
        cancelLabel="Keep it"
        busy={busy === "delete"}
        onConfirm={removal.confirm}
        onClose={removal.cancel}
      >
        <Muted>No more invoices are made. The invoices it already made stay.</Muted>
      </ConfirmDialog>
    </div>
  );
}

function MadeInvoices({ detail }: { detail: RecurringDetail }) {
  return (
    <section aria-label={`Invoices made for ${clientOf(detail)}`} className="space-y-2">
      <h2 className="text-lg font-semibold text-slate-900 dark:text-slate-100">
        Invoices made for {clientOf(detail)}
      </h2>
      {detail.lastRefusal && <LastRefusal refusal={detail.lastRefusal} />}
      {detail.invoices.length === 0 ? (
        <Muted>
          None yet: the first is made on {formatDate(detail.nextDate ?? detail.startDate)}.
        </Muted>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
          {detail.invoices.map((i) => (
            <li key={i.id} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm">
              <Link href={`/invoices/${i.id}`} className="font-medium underline">
                {i.invoiceNumber}
              </Link>
              <span>{formatDate(i.periodDate)}</span>
              <span>{formatAmount(i.total, i.currency)}</span>
              <StatusBadge status={i.status} />
              {detail.autoSend && i.status === "DRAFT" && (
                <span className="text-amber-800 dark:text-amber-300">
                  Not sent: open it to see why your wallet cannot receive it yet.
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Why the job last refused this schedule's period (docs/decisions.md, Recurring invoices). */
function LastRefusal({ refusal }: { refusal: NonNullable<RecurringDetail["lastRefusal"]> }) {
  return (
    <Alert>
      <span className="font-medium">
        Invoice {refusal.period + 1} on {formatDate(refusal.at)}:
      </span>{" "}
      {refusal.reason}
    </Alert>
  );
}
