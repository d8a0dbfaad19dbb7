"use client";

import Link from "next/link";
import { useState } from "react";
import type { SavedClient } from "@/components/clients/types";
import { Button, buttonClass } from "@/components/ui/button";
import { Alert, StatusBadge } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState, Loading, Muted, PageHeader } from "@/components/ui/page";
import { ACTIONS_COLUMN, Table } from "@/components/ui/table";
import { useCan } from "@/lib/client/session";
import { useAction, useRemoval } from "@/lib/client/use-action";
import { useResource } from "@/lib/client/use-resource";
import { formatAmount, formatDate, stateWords } from "@/lib/format";
import { scheduleText } from "./schedule-fields";
import type { Recurring, RecurringDetail } from "./types";

const cell = "px-3 py-2 align-middle text-slate-800 dark:text-slate-200";
const COLUMNS = ["Client", "Schedule", "Next invoice", "Made", "Status", ACTIONS_COLUMN];

/** The template's client: typed, or a saved client's name (each invoice reads it when made). */
const clientName = (r: Recurring, clients: SavedClient[] | null) => {
  const id = typeof r.template.clientId === "string" ? r.template.clientId : null;
  if (!id) return String(r.template.clientName ?? "");
  return clients?.find((c) => c.id === id)?.name ?? "Saved client";
};

/** Recurring invoices: the list; pause, resume, delete, edit, and the invoices each made. */
export function RecurringView({
  just,
}: {
  /** The schedule the form just created or saved (the page's query). */
  just?: { created: string } | { saved: string };
}) {
  const { data, setData, error, loading, api } = useResource<Recurring[]>("/api/recurring");
  const { data: clients } = useResource<SavedClient[]>("/api/clients");
  const clientOf = (r: Recurring) => clientName(r, clients);
  const writes = useCan()("write");
  const [open, setOpen] = useState<RecurringDetail | null>(null);
  const action = useAction();
  const { busy, notice, run } = action;
  const refresh = async () => setData(await api<Recurring[]>("/api/recurring"));
  const removal = useRemoval(action, async (r: Recurring) => {
    await api(`/api/recurring/${r.id}`, { method: "DELETE" });
    await refresh();
    if (open?.id === r.id) setOpen(null);
    return `Deleted the recurring invoice for ${clientOf(r)}. The invoices it made stay.`;
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
        actions={
          writes && (
            <Link href="/recurring/new" className={buttonClass("primary")}>
              New recurring invoice
            </Link>
          )
        }
      />
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {!notice && data && just && <JustSaved list={data} just={just} />}
      <div>
        <div className="space-y-6">
          {error && <Alert>{error}</Alert>}
          {!data && loading && <Loading what="recurring invoices" />}
          {data && data.length === 0 && (
            <EmptyState>
              No recurring invoices yet. Create one with “New recurring invoice”.
            </EmptyState>
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
                    <Link
                      href={`/recurring/${r.id}/edit`}
                      className={buttonClass("ghost")}
                      aria-label={`Edit the recurring invoice for ${clientOf(r)}`}
                    >
                      Edit
                    </Link>
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
          {open && <MadeInvoices detail={open} client={clientOf(open)} />}
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

function MadeInvoices({ detail, client }: { detail: RecurringDetail; client: string }) {
  return (
    <section aria-label={`Invoices made for ${client}`} className="space-y-2">
      <h2 className="text-lg font-semibold text-slate-900 dark:text-slate-100">
        Invoices made for {client}
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

/** What the form just did: when the first (or next) invoice is made. */
function JustSaved({
  list,
  just,
}: {
  list: Recurring[];
  just: { created: string } | { saved: string };
}) {
  const created = "created" in just;
  const r = list.find((x) => x.id === (created ? just.created : just.saved));
  if (!r) return null;
  const next = r.nextDate ?? r.startDate;
  return (
    <Alert kind="success">
      {created
        ? `Created: the first invoice is made on ${formatDate(next)}.`
        : `Saved: the changes apply from the next invoice${r.nextDate ? `, on ${formatDate(r.nextDate)}` : ""}; the invoices already made stay as they are.`}
    </Alert>
  );
}
