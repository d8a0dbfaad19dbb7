"use client";

import Link from "next/link";
import { useState } from "react";
import { Button, textLinkClass } from "@/components/ui/button";
import { Alert, Card, StatusBadge } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { Loading, Muted, PageHeader, Pair } from "@/components/ui/page";
import { right, Table, tdClass } from "@/components/ui/table";
import { useAction } from "@/lib/client/use-action";
import { useResource } from "@/lib/client/use-resource";
import {
  formatDateTime,
  formatTrimmed,
  NETWORK_LABELS,
  networkOf,
  shortAddress,
} from "@/lib/format";
import type { linkPaymentList, PaymentLinkBody } from "@/lib/schemas/links";
import type { FormB } from "@/lib/schemas/wire";
import { EditLinkForm } from "./edit-link-form";
import { exactOf, linkAmount, linkPayments, priced, shownLinkStatus } from "./link-words";

type LinkPayments = FormB<typeof linkPaymentList>;
type PaidRecord = LinkPayments["payments"][number];

const COLUMNS = ["Checkout", "Payer", right("Amount"), "Status", "Date"];

/**
 * One payment link for its owner (GET /api/links/{id}/payments): what it asks, its state, who
 * paid each checkout, and the owner's changes: title and expiry, deactivate and reactivate
 * (docs/decisions.md, Payment links, Managing a link).
 */
export function LinkDetail({ id }: { id: string }) {
  const { data, setData, error, loading, api } = useResource<LinkPayments>(
    `/api/links/${id}/payments`,
    { refreshOnFocus: true },
  );
  const action = useAction();
  const [asking, setAsking] = useState(false);
  const link = data?.link;

  const replace = (next: PaymentLinkBody) => setData((d) => (d ? { ...d, link: next } : d));
  const setActive = (active: boolean) =>
    action.run(active ? "reactivate" : "deactivate", async () => {
      const next = await api<PaymentLinkBody>(
        `/api/links/${id}/${active ? "reactivate" : "deactivate"}`,
        { method: "POST", body: {} },
      );
      replace(next);
      setAsking(false);
      return active
        ? "Link reactivated: it accepts payments again."
        : "Link deactivated: it accepts no new payments.";
    });

  if (!link) {
    return (
      <div className="space-y-6">
        <PageHeader title="Payment link" />
        {error && <Alert>{error}</Alert>}
        {loading && <Loading what="the payment link" />}
      </div>
    );
  }
  const title = link.metadata.title;
  const status = shownLinkStatus(link);
  const canDeactivate = link.status === "ACTIVE" && !link.deactivatedAt;

  return (
    <div className="space-y-6">
      <PageHeader
        title={title}
        description={linkAmount(link)}
        actions={
          <Link href="/links" className={`${textLinkClass} text-sm`}>
            All payment links
          </Link>
        }
      />
      {action.notice && (
        <Alert kind={action.notice.kind === "success" ? "success" : "error"}>
          {action.notice.text}
        </Alert>
      )}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="Link">
          <dl className="grid grid-cols-2 gap-3 text-sm">
            <Pair label="Status">
              <StatusBadge status={status} />
            </Pair>
            <Pair label="Payments">{linkPayments(link)}</Pair>
            <Pair label="Received" className="font-mono">
              <span title={exactOf(link.amountReceived, link)}>
                {priced(link.amountReceived, link)}
              </span>
            </Pair>
            <Pair label="Network">{NETWORK_LABELS[networkOf(link.networkPassphrase)]}</Pair>
            <Pair label="Expires">{link.expiresAt ? formatDateTime(link.expiresAt) : "Never"}</Pair>
            <Pair label="Created">{formatDateTime(link.createdAt)}</Pair>
          </dl>
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <CopyButton text={link.checkoutUrl} label="Copy checkout link" />
            {canDeactivate && (
              <Button variant="danger" onClick={() => setAsking(true)}>
                Deactivate link
              </Button>
            )}
            {link.deactivatedAt && (
              <Button
                variant="secondary"
                disabled={action.busy !== null}
                onClick={() => setActive(true)}
              >
                Reactivate link
              </Button>
            )}
          </div>
          {link.deactivatedAt && (
            <Muted className="mt-3">
              Deactivated {formatDateTime(link.deactivatedAt)}: its page tells payers it is no
              longer accepting payments. Checkouts already started can still be paid.
            </Muted>
          )}
        </Card>
        {link.status === "ACTIVE" && <EditLinkForm link={link} api={api} onSaved={replace} />}
      </div>
      <Card title="Who paid">
        {data.payments.length === 0 ? (
          <Muted>No payments yet. Each payment through this link is listed here.</Muted>
        ) : (
          <Table caption="Payments through this link, newest first" columns={COLUMNS} stacked>
            {data.payments.map((p) => (
              <PaidRow key={p.id} record={p} link={link} />
            ))}
          </Table>
        )}
      </Card>
      <ConfirmDialog
        open={asking}
        title="Deactivate this link?"
        confirmLabel="Deactivate"
        cancelLabel="Keep it active"
        busy={action.busy !== null}
        onConfirm={() => setActive(false)}
        onClose={() => setAsking(false)}
      >
        Payers who open it will be told it no longer accepts payments. Checkouts already started can
        still be paid, and every payment received is recorded. You can reactivate it later.
      </ConfirmDialog>
    </div>
  );
}

/** A checkout (or the link itself) that received money: its number, payer, amount, state. */
function PaidRow({ record: r, link }: { record: PaidRecord; link: PaymentLinkBody }) {
  const payer = r.payerWallet ?? r.received[0]?.fromWallet ?? null;
  const at = r.paidAt ?? r.received.at(-1)?.confirmedAt ?? r.createdAt;
  // The asset amounts that moved, beside what they counted for when the link is fiat-priced.
  const sent = link.priceCurrency
    ? r.received.map((p) => formatTrimmed(p.amount, p.asset)).join(" + ")
    : null;
  return (
    <tr>
      <th scope="row" className={`${tdClass} text-left font-mono font-medium`}>
        {r.memo}
      </th>
      <td className={`${tdClass} font-mono`}>
        {payer ? <span title={payer}>{shortAddress(payer)}</span> : "—"}
      </td>
      <td className={`${tdClass} text-right font-mono`} title={exactOf(r.amountPaid, link)}>
        {priced(r.amountPaid, link)}
        {sent && (
          <span className="block text-xs text-slate-500 dark:text-slate-400">{sent} sent</span>
        )}
      </td>
      <td className={tdClass}>
        <StatusBadge status={r.status} />
      </td>
      <td className={`${tdClass} whitespace-nowrap`}>
        <time dateTime={at}>{formatDateTime(at)}</time>
      </td>
    </tr>
  );
}
