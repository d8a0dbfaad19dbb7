"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Loading, Muted } from "@/components/ui/page";
import { ACTIONS_COLUMN, Pager, right, Table, tdClass } from "@/components/ui/table";
import { useAction } from "@/lib/client/use-action";
import { usePagedResource } from "@/lib/client/use-resource";
import { formatDateTime } from "@/lib/format";
import type { Delivery, DeliveryPage } from "./types";

const PAGE_SIZE = 20;
/** After a test event, the log asks again this often while a delivery is pending, this long. */
const FOLLOW_MS = 2000;
const FOLLOW_FOR_MS = 30_000;

const STATUS: Record<Delivery["status"], [text: string, className: string]> = {
  pending: ["Pending", "text-amber-700 dark:text-amber-300"],
  delivered: ["Delivered", "text-emerald-700 dark:text-emerald-300"],
  failed: ["Failed", "text-red-700 dark:text-red-300"],
};

const COLUMNS = [
  "Event",
  "Status",
  right("Attempts"),
  "Last response",
  "Last attempt",
  "Next or done",
  ACTIONS_COLUMN,
];

/**
 * One endpoint's deliveries, newest first, with a Redeliver button per row. `follow` changes
 * when a test event was queued: the log loads again, then keeps asking while a delivery due
 * within seconds is still pending, so the test's result shows without a click.
 */
export function DeliveryLog({ webhookId, follow = 0 }: { webhookId: string; follow?: number }) {
  const path = `/api/webhooks/${webhookId}/deliveries`;
  const { data, setData, error, loading, reload, api, pager } = usePagedResource<DeliveryPage>(
    path,
    PAGE_SIZE,
    (page) => page.deliveries,
  );
  const { busy, notice, run } = useAction();

  const [followUntil, setFollowUntil] = useState(0);
  useEffect(() => {
    if (follow === 0) return;
    setFollowUntil(Date.now() + FOLLOW_FOR_MS);
    reload();
  }, [follow, reload]);
  const pending = data?.deliveries.some((d) => d.status === "pending") ?? false;
  useEffect(() => {
    if (!pending || loading || Date.now() > followUntil) return;
    const timer = setTimeout(reload, FOLLOW_MS);
    return () => clearTimeout(timer);
  }, [pending, loading, followUntil, reload]);

  const redeliver = (d: Delivery) =>
    run(d.id, async () => {
      const updated = await api<Delivery>(`${path}/${d.id}/retry`, { method: "POST" });
      setData((page) =>
        page
          ? { ...page, deliveries: page.deliveries.map((x) => (x.id === d.id ? updated : x)) }
          : page,
      );
      return `Queued ${d.eventType ?? "the event"} for redelivery.`;
    });

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
        <Muted>
          Nothing delivered yet. Events appear here as soon as one of the chosen types happens.
        </Muted>
      )}
      {data && data.deliveries.length > 0 && (
        <>
          <Table caption="Deliveries to this endpoint, newest first" columns={COLUMNS} stacked>
            {data.deliveries.map((d) => (
              <DeliveryRow
                key={d.id}
                delivery={d}
                onRedeliver={() => redeliver(d)}
                disabled={busy !== null}
              />
            ))}
          </Table>
          {pager && (data.offset > 0 || data.hasMore) && (
            <Pager label="Delivery pages" {...pager} />
          )}
        </>
      )}
    </div>
  );
}

function DeliveryRow({
  delivery: d,
  onRedeliver,
  disabled,
}: {
  delivery: Delivery;
  onRedeliver: () => void;
  disabled: boolean;
}) {
  const rowId = `delivery-${d.id}`;
  const [text, className] = STATUS[d.status];
  return (
    <tr>
      <th scope="row" id={rowId} className={`${tdClass} text-left font-normal`}>
        <span className="block font-mono text-xs font-medium">
          {d.eventType === "ping" ? "ping (test event)" : (d.eventType ?? "unknown event")}
        </span>
        <span className="block font-mono text-[11px] text-slate-500 dark:text-slate-400">
          {d.eventId}
        </span>
      </th>
      <td className={`${tdClass} font-medium ${className}`}>{text}</td>
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
      <td className={`${tdClass} whitespace-nowrap`}>{formatDateTime(d.lastAttemptAt)}</td>
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
          onClick={onRedeliver}
          disabled={disabled}
          aria-describedby={rowId}
        >
          Redeliver
        </Button>
      </td>
    </tr>
  );
}
