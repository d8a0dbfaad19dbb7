"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { usePreferredNetwork } from "@/components/dashboard/network-preference";
import { ClientAndTitle, DocumentCard } from "@/components/documents/document-card";
import { type DocumentColumn, DocumentList } from "@/components/documents/document-list";
import { Amount } from "@/components/ui/amount";
import { Button, textLinkClass } from "@/components/ui/button";
import { StatusBadge } from "@/components/ui/card";
import { Field, OptionsSelect } from "@/components/ui/field";
import { CURRENCY_OPTIONS, NETWORK_OPTIONS } from "@/components/ui/options";
import { Muted } from "@/components/ui/page";
import { isPartlyPaid } from "@/components/ui/payment-words";
import { right } from "@/components/ui/table";
import { useCan } from "@/lib/client/session";
import { INVOICE_STATUSES } from "@/lib/domain/invoice-state";
import { formatDate, NETWORK_LABELS, networkOf, stateWords } from "@/lib/format";
import type { InvoiceListItem, InvoicePage } from "./types";

// PROCESSING shows as PENDING (`shownStatus`, lib/format.ts); its filter says what it picks.
const STATUS_OPTIONS: [string, string][] = INVOICE_STATUSES.map((s) => [
  s,
  s === "PROCESSING" ? "Pending, payment started" : stateWords(s),
]);
const SORT_OPTIONS = [
  ["createdAt:desc", "Newest first"],
  ["createdAt:asc", "Oldest first"],
  ["dueDate:asc", "Due date, soonest first"],
  ["dueDate:desc", "Due date, latest first"],
  ["total:desc", "Total, highest first"],
  ["total:asc", "Total, lowest first"],
  ["invoiceNumber:asc", "Number, A to Z"],
  ["invoiceNumber:desc", "Number, Z to A"],
  ["status:asc", "State, A to Z"],
  ["updatedAt:desc", "Recently updated"],
] as const;

const COLUMNS: DocumentColumn<InvoiceListItem>[] = [
  {
    header: "Number",
    className: "whitespace-nowrap",
    cell: (inv) => (
      <Link href={`/invoices/${inv.id}`} className={textLinkClass}>
        {inv.invoiceNumber}
      </Link>
    ),
  },
  {
    header: "Client and title",
    className: "break-words",
    cell: (inv) => <ClientAndTitle name={inv.clientName} title={inv.title} />,
  },
  { header: "Status", cell: (inv) => <StatusBadge status={inv.status} /> },
  {
    header: right("Total"),
    className: "whitespace-nowrap text-right font-mono",
    cell: (inv) => <InvoiceTotal invoice={inv} />,
  },
  { header: "Due", className: "whitespace-nowrap", cell: (inv) => formatDate(inv.dueDate) },
  { header: "Network", cell: (inv) => NETWORK_LABELS[networkOf(inv.networkPassphrase)] },
  { header: "Created", className: "whitespace-nowrap", cell: (inv) => formatDate(inv.createdAt) },
];

/** The owner's invoices (GET /api/invoices): the document list with currency, network and email. */
export function InvoiceList() {
  const router = useRouter();
  const [currency, setCurrency] = useState("");
  const [network, setNetwork] = useState("");
  const [clientEmail, setClientEmail] = useState("");
  const [email, setEmail] = useState("");
  // The list opens on the network chosen on the dashboard; picking one here remembers it too.
  const [preferred, setPreferred, ready] = usePreferredNetwork();
  const started = useRef(false);
  useEffect(() => {
    if (ready && !started.current) {
      started.current = true;
      setNetwork(preferred);
    }
  }, [ready, preferred]);

  function changeNetwork(value: string) {
    setNetwork(value);
    if (value === "testnet" || value === "mainnet") setPreferred(value);
  }

  // The network is a view (like the dashboard's switch), not a filter to clear.
  const onNetwork =
    network === "testnet" || network === "mainnet" ? ` on ${NETWORK_LABELS[network]}` : "";
  const newInvoice = () => router.push("/invoices/new");
  const writes = useCan()("write");

  return (
    <DocumentList<InvoicePage, InvoiceListItem>
      noun={{ plural: "invoices", title: "Invoices" }}
      title="Invoices"
      description="Drafts, sent and paid invoices. Payment links are listed on their own page."
      actions={writes && <Button onClick={newInvoice}>New invoice</Button>}
      endpoint="/api/invoices"
      items={(page) => page.invoices}
      statusOptions={STATUS_OPTIONS}
      sortOptions={SORT_OPTIONS}
      defaultSort="createdAt:desc"
      formClassName="lg:grid-cols-6"
      extra={{
        ready,
        params: { currency, network, clientEmail },
        filtered: currency !== "" || clientEmail !== "",
        clear: () => {
          setCurrency("");
          setClientEmail("");
          setEmail("");
        },
        submit: () => setClientEmail(email),
        fields: (
          <>
            <OptionsSelect
              label="Currency"
              any="All currencies"
              options={CURRENCY_OPTIONS}
              name="currency"
              value={currency}
              onChange={(e) => setCurrency(e.target.value)}
            />
            <OptionsSelect
              label="Network"
              any="All networks"
              options={NETWORK_OPTIONS}
              name="network"
              value={network}
              onChange={(e) => changeNetwork(e.target.value)}
            />
            <div className="flex items-end gap-2 sm:col-span-2">
              <Field
                label="Client email"
                name="clientEmail"
                type="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                className="flex-1"
                placeholder="exact address"
              />
              <Button type="submit" variant="secondary">
                Apply
              </Button>
            </div>
          </>
        ),
      }}
      columns={COLUMNS}
      card={(inv) => <InvoiceCard invoice={inv} />}
      empty={
        <div className="space-y-3">
          <Muted>
            You have no invoices{onNetwork} yet. Create one, send it, and share its payment link.
          </Muted>
          {writes && <Button onClick={newInvoice}>Create your first invoice</Button>}
        </div>
      }
    />
  );
}

/** The total (trimmed, exact on hover), with paid and due while partly paid. */
function InvoiceTotal({ invoice: inv }: { invoice: InvoiceListItem }) {
  return (
    <>
      <Amount value={inv.total} pricing={inv} withAsset />
      {isPartlyPaid(inv) && (
        <span className="block text-xs text-slate-500 dark:text-slate-400">
          <Amount value={inv.amountPaid} pricing={inv} /> paid ·{" "}
          <Amount value={inv.amountDue} pricing={inv} /> due
        </span>
      )}
    </>
  );
}

/** An invoice on a phone: the number links to it; client, status, due date and total show. */
function InvoiceCard({ invoice: inv }: { invoice: InvoiceListItem }) {
  return (
    <DocumentCard
      label={`Invoice ${inv.invoiceNumber}`}
      href={`/invoices/${inv.id}`}
      number={inv.invoiceNumber}
      status={inv.status}
      clientName={inv.clientName}
      title={inv.title}
      date={`Due ${formatDate(inv.dueDate)}`}
      total={<InvoiceTotal invoice={inv} />}
      totalTestId="invoice-card-total"
    />
  );
}
