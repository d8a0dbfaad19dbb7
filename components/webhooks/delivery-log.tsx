"use client";

import { useState } from "react";
import { Loading, Th, tableClass, tdClass } from "@/components/invoices/controls";
import { formatDateTime } from "@/components/invoices/format";
import { useResource } from "@/components/invoices/use-resource";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { errorMessage, useApi } from "@/lib/client/session";
import type { Delivery, DeliveryPage } from "./types";

const PAGE_SIZE = 20;

const STATUS_TEXT: Record<Delivery["status"], string> = {
  pending: "Pending",
  delivered: "Delivered",
  failed: "Failed",
};

const STATUS_CLASS: Record<Delivery["status"], string> = {
  pending: "text-amber-700 dark:text-amber-300",
  delivered: "text-emerald-700 dark:text-emerald-300",
  failed: "text-red-700 dark:text-red-300",
};

/** One endpoint's deliveries, newest first, with a Redeliver button per row. */
export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const api = useApi();
  const [offset, setOffset] = useState(0);
  const { data, setData, error, loading, reload } = useResource<DeliveryPage>(
    `/api/webhooks/${webhookId}/deliveries?limit=${PAGE_SIZE}&offset=${offset}`,
  );
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ kind: "success" | "error"; text: string } | null>(null);

  async function redeliver(d: Delivery) {
    setBusy(d.id);
    setNotice(null);
    try {
      const updated = await api<Delivery>(`/api/webhooks/${webhookId}/deliveries/${d.id}/retry`, {
        method: "POST",
      });
      setData((page) =>
        page
          ? { ...page, deliveries: page.deliveries.map((x) => (x.id === d.id ? updated : x)) }
          : page,
      );
      setNotice({ kind: "success", text: `Queued ${d.eventType ?? "the event"} for redelivery.` });
    } catch (err) {
      setNotice({ kind: "error", text: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="mt-4 space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">Deliveries</h3>
        <Button variant="ghost" onClick={reload} disabled={loading}>
          Refresh
        </Button>
      </div>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {error && <Alert>{error}</Alert>}
      {!data && loading && <Loading what="deliveries" />}
      {data && data.total === 0 && (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Nothing delivered yet. Events appear here as soon as one of the chosen types happens.
        </p>
      )}
      {data && data.deliveries.length > 0 && (
        <>
          <div className="overflow-x-auto">
            <table className={tableClass}>
              <caption className="sr-only">Deliveries to this endpoint, newest first</caption>
              <thead>
                <tr>
                  <Th>Event</Th>
                  <Th>Status</Th>
                  <Th align="right">Attempts</Th>
                  <Th>Last response</Th>
                  <Th>Last attempt</Th>
                  <Th>Next or done</Th>
                  <Th>
                    <span className="sr-only">Actions</span>
                  </Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
                {data.deliveries.map((d) => {
                  const rowId = `delivery-${d.id}`;
                  return (
                    <tr key={d.id}>
                      <th scope="row" id={rowId} className={`${tdClass} text-left font-normal`}>
                        <span className="block font-mono text-xs font-medium">
                          {d.eventType ?? "unknown event"}
                        </span>
                        <span className="block font-mono text-[11px] text-slate-500 dark:text-slate-400">
                          {d.eventId}
                        </span>
                      </th>
                      <td className={`${tdClass} font-medium ${STATUS_CLASS[d.status]}`}>
                        {STATUS_TEXT[d.status]}
                      </td>
                      <td className={`${tdClass} text-right`}>{d.attempts}</td>
                      <td className={tdClass}>
                        {d.lastStatusCode !== null && (
                          <span className="block font-mono">HTTP {d.lastStatusCode}</span>
                        )}
                        {d.lastError && d.lastError !== `HTTP ${d.lastStatusCode}` && (
                          <span className="block max-w-xs break-words text-xs text-red-700 dark:text-red-300">
                            {d.lastError}
                          </span>
                        )}
                        {d.lastStatusCode === null && !d.lastError && "—"}
                      </td>
                      <td className={`${tdClass} whitespace-nowrap`}>
                        {formatDateTime(d.lastAttemptAt)}
                      </td>
                      <td className={`${tdClass} whitespace-nowrap`}>
                        {d.status === "delivered"
                          ? `Delivered ${formatDateTime(d.deliveredAt)}`
                          : d.status === "pending"
                            ? `Next ${formatDateTime(d.nextAttemptAt)}`
                            : "Gave up"}
                      </td>
                      <td className={`${tdClass} text-right`}>
                        <Button
                          variant="secondary"
                          onClick={() => redeliver(d)}
                          disabled={busy !== null}
                          aria-describedby={rowId}
                        >
                          Redeliver
                        </Button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {(data.offset > 0 || data.hasMore) && (
            <nav aria-label="Delivery pages" className="flex items-center justify-between gap-2">
              <p className="text-sm text-slate-600 dark:text-slate-300">
                {`${data.offset + 1}–${data.offset + data.deliveries.length} of ${data.total}`}
              </p>
              <div className="flex gap-2">
                <Button
                  variant="secondary"
                  disabled={data.offset === 0 || loading}
                  onClick={() => setOffset(Math.max(0, data.offset - PAGE_SIZE))}
                >
                  Previous
                </Button>
                <Button
                  variant="secondary"
                  disabled={!data.hasMore || loading}
                  onClick={() => setOffset(data.offset + PAGE_SIZE)}
                >
                  Next
                </Button>
              </div>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
