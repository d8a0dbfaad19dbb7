"use client";

import Link from "next/link";
import { useState } from "react";
import { textLinkClass } from "@/components/ui/button";
import { Alert, Card, StatusBadge } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Loading, Muted, PageHeader } from "@/components/ui/page";
import { QrCode } from "@/components/ui/qr-code";
import { ReadOnlyField } from "@/components/ui/read-only-field";
import { right, Table, tdClass } from "@/components/ui/table";
import { useCan } from "@/lib/client/session";
import { useResource } from "@/lib/client/use-resource";
import { formatDateTime, NETWORK_LABELS, networkOf } from "@/lib/format";
import type { PaymentLinkBody } from "@/lib/schemas/links";
import { exactOf, linkAmount, linkPayments, priced, shownLinkStatus } from "./link-words";
import { NewLinkForm } from "./new-link-form";

const COLUMNS = [
  "Title",
  right("Amount"),
  "Status",
  right("Payments"),
  "Network",
  "Expires",
  "Checkout",
];

const onNetwork = (l: PaymentLinkBody) => NETWORK_LABELS[networkOf(l.networkPassphrase)];

export function LinksView() {
  const { data, setData, error, loading, api } = useResource<{ links: PaymentLinkBody[] }>(
    "/api/links",
  );
  const [created, setCreated] = useState<PaymentLinkBody | null>(null);
  const writes = useCan()("write");
  const links = data?.links ?? [];

  function onCreated(link: PaymentLinkBody) {
    setData((d) => ({ links: [link, ...(d?.links ?? []).filter((l) => l.id !== link.id)] }));
    setCreated(link);
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title="Payment links"
        description="An amount to collect, without writing an invoice: paid once, or many times when reusable."
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        {writes && <NewLinkForm api={api} onCreated={onCreated} />}
        {created && (
          <Card title="Your new link">
            <div className="space-y-3">
              <p className="text-sm" role="status">
                Link created: {linkAmount(created)} on {onNetwork(created)}
                {created.expiresAt ? `, until ${formatDateTime(created.expiresAt)}` : ""}.
              </p>
              <ReadOnlyField label="Checkout URL" value={created.checkoutUrl} />
              <CopyButton text={created.checkoutUrl} label="Copy checkout link" />
              <div>
                <QrCode value={created.checkoutUrl} label="QR code for the new checkout link" />
              </div>
            </div>
          </Card>
        )}
      </div>

      <Card title="Your payment links">
        {error && <Alert>{error}</Alert>}
        {!data && loading && <Loading what="payment links" />}
        {data && links.length === 0 && (
          <Muted>No payment links yet. Create one above and share its URL or QR code.</Muted>
        )}
        {links.length > 0 && (
          <Table caption="Your payment links, newest first" columns={COLUMNS} stacked>
            {links.map((l) => (
              <LinkRow key={l.id} link={l} />
            ))}
          </Table>
        )}
      </Card>
    </div>
  );
}

function LinkRow({ link: l }: { link: PaymentLinkBody }) {
  const name = l.metadata.title ?? l.memo;
  return (
    <tr>
      <th scope="row" className={`${tdClass} text-left font-medium`}>
        {/* The link's page: who paid, edit, deactivate. */}
        <Link href={`/links/${l.id}`} className={textLinkClass}>
          {name}
        </Link>
        {l.metadata.reference && (
          <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">
            Ref. {l.metadata.reference}
          </span>
        )}
      </th>
      <td className={`${tdClass} text-right font-mono`} title={exactOf(l.amount, l)}>
        {linkAmount(l)}
      </td>
      <td className={tdClass}>
        <StatusBadge status={shownLinkStatus(l)} />
      </td>
      <td className={`${tdClass} whitespace-nowrap text-right`}>
        {linkPayments(l)}
        {l.paymentsCount > 0 && (
          <span
            className="block font-mono text-xs text-slate-500 dark:text-slate-400"
            title={exactOf(l.amountReceived, l)}
          >
            {priced(l.amountReceived, l)} received
          </span>
        )}
      </td>
      <td className={tdClass}>{onNetwork(l)}</td>
      <td className={`${tdClass} whitespace-nowrap`}>
        {l.expiresAt ? formatDateTime(l.expiresAt) : "Never"}
      </td>
      <td className={`${tdClass} whitespace-nowrap`}>
        <span className="flex flex-wrap items-center gap-2">
          <a
            href={l.checkoutUrl}
            target="_blank"
            rel="noreferrer"
            className={textLinkClass}
            aria-label={`Open checkout for ${name} (new tab)`}
          >
            Open
          </a>
          <CopyButton
            text={l.checkoutUrl}
            label="Copy"
            ariaLabel={`Copy URL of ${name}`}
            variant="ghost"
          />
        </span>
      </td>
    </tr>
  );
}
