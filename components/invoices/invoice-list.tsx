"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { usePreferredNetwork } from "@/components/dashboard/network-preference";
import { Amount } from "@/components/ui/amount";
import { Button, textLinkClass } from "@/components/ui/button";
import { Alert, StatusBadge } from "@/components/ui/card";
import { Field, OptionsSelect } from "@/components/ui/field";
import { CURRENCY_OPTIONS, NETWORK_OPTIONS } from "@/components/ui/options";
import { EmptyState, Loading, Muted, PageHeader } from "@/components/ui/page";
import { isPartlyPaid } from "@/components/ui/payment-words";
import { Pager, right, Table, tdClass } from "@/components/ui/table";
import { useCan } from "@/lib/client/session";
import { usePagedResource } from "@/lib/client/use-resource";
import { INVOICE_STATUSES } from "@/lib/domain/invoice-state";
import { formatDate, NETWORK_LABELS, networkOf, stateWords } from "@/lib/format";
import type { InvoiceListItem, InvoicePage } from "./types";

const PAGE_SIZE = 20;

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

const COLUMNS = [
  "Number",
  "Client and title",
  "Status",
  right("Total"),
  "Due",
  "Network",
  "Created",
];

type Filters = {
  status: string;
  currency: string;
  network: string;
  clientEmail: string;
  sort: string;
};
const EMPTY: Filters = {
  status: "",
  currency: "",
  network: "",
  clientEmail: "",
  sort: "createdAt:desc",
};

function query(filters: Filters): string {
  const q = new URLSearchParams();
  for (const key of ["status", "currency", "network", "sort"] as const) {
    if (filters[key]) q.set(key, filters[key]);
  }
  if (filters.clientEmail.trim()) q.set("clientEmail", filters.clientEmail.trim());
  const search = q.toString();
  return search ? `/api/invoices?${search}` : "/api/invoices";
}

export function InvoiceList() {
  const router = useRouter();
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [email, setEmail] = useState("");
  // The list opens on the network chosen on the dashboard; picking one here remembers it too.
  const [preferred, setPreferred, ready] = usePreferredNetwork();
  const started = useRef(false);
  useEffect(() => {
    if (ready && !started.current) {
      started.current = true;
      setFilters((f) => ({ ...f, network: preferred }));
    }
  }, [ready, preferred]);
  const { data, error, loading, pager } = usePagedResource<InvoicePage>(
    ready ? query(filters) : null,
    PAGE_SIZE,
    (page) => page.invoices,
  );

  function change(key: keyof Filters, value: string) {
    setFilters((f) => ({ ...f, [key]: value }));
    if (key === "network" && (value === "testnet" || value === "mainnet")) setPreferred(value);
  }
  const select = (key: keyof Filters) => ({
    name: key,
    value: filters[key],
    onChange: (e: { target: { value: string } }) => change(key, e.target.value),
  });

  function clearFilters() {
    setFilters((f) => ({ ...EMPTY, network: f.network, sort: f.sort }));
    setEmail("");
  }

  function applyEmail(e: FormEvent) {
    e.preventDefault();
    change("clientEmail", email);
  }

  // The network is a view (like the dashboard's switch), not a filter to clear.
  const filtered = filters.status !== "" || filters.currency !== "" || filters.clientEmail !== "";
  const onNetwork =
    filters.network === "testnet" || filters.network === "mainnet"
      ? ` on ${NETWORK_LABELS[filters.network]}`
      : "";
  const newInvoice = () => router.push("/invoices/new");
  const writes = useCan()("write");

  return (
    <div className="space-y-6">
      <PageHeader
        title="Invoices"
        description="Drafts, sent and paid invoices. Payment links are listed on their own page."
        actions={writes && <Button onClick={newInvoice}>New invoice</Button>}
      />

      <form
        onSubmit={applyEmail}
        aria-label="Filter invoices"
        className="grid grid-cols-1 gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-6 dark:border-slate-700 dark:bg-slate-900"
      >
        <OptionsSelect
          label="Status"
          any="All statuses"
          options={STATUS_OPTIONS}
          {...select("status")}
        />
        <OptionsSelect
          label="Currency"
          any="All currencies"
          options={CURRENCY_OPTIONS}
          {...select("currency")}
        />
        <OptionsSelect
          label="Network"
          any="All networks"
          options={NETWORK_OPTIONS}
          {...select("network")}
        />
        <OptionsSelect label="Sort by" options={SORT_OPTIONS} {...select("sort")} />
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
        {filtered && (
          <div className="sm:col-span-2 lg:col-span-6">
            <Button variant="ghost" onClick={clearFilters}>
              Clear filters
            </Button>
          </div>
        )}
      </form>

      {error && <Alert>{error}</Alert>}
      {!data && loading && <Loading what="invoices" />}
      {data && data.total === 0 && (
        <EmptyState>
          {filtered ? (
            <p>No invoices match these filters.</p>
          ) : (
            <div className="space-y-3">
              <Muted>
                You have no invoices{onNetwork} yet. Create one, send it, and share its payment
                link.
              </Muted>
              <Button onClick={newInvoice}>Create your first invoice</Button>
            </div>
          )}
        </EmptyState>
      )}
      {data && data.total > 0 && (
        <div className="rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
          {/* Phones get cards (number, client, status, due date, total), wider screens the table. */}
          <ul
            aria-label="Invoices"
            aria-busy={loading}
            className="divide-y divide-slate-200 md:hidden dark:divide-slate-700"
          >
            {data.invoices.map((inv) => (
              <li key={inv.id}>
                <InvoiceCard invoice={inv} />
              </li>
            ))}
          </ul>
          <Table
            caption="Invoices"
            columns={COLUMNS}
            busy={loading}
            headClassName="bg-slate-50 dark:bg-slate-800"
            className="hidden overflow-x-auto md:block"
          >
            {data.invoices.map((inv) => (
              <tr key={inv.id}>
                <td className={`${tdClass} whitespace-nowrap`}>
                  <Link href={`/invoices/${inv.id}`} className={textLinkClass}>
                    {inv.invoiceNumber}
                  </Link>
                </td>
                <td className={`${tdClass} break-words`}>
                  <span className="block font-medium">{inv.clientName}</span>
                  <span className="block text-xs text-slate-500 dark:text-slate-400">
                    {inv.title}
                  </span>
                </td>
                <td className={tdClass}>
                  <StatusBadge status={inv.status} />
                </td>
                <td className={`${tdClass} whitespace-nowrap text-right font-mono`}>
                  <InvoiceTotal invoice={inv} />
                </td>
                <td className={`${tdClass} whitespace-nowrap`}>{formatDate(inv.dueDate)}</td>
                <td className={tdClass}>{NETWORK_LABELS[networkOf(inv.networkPassphrase)]}</td>
                <td className={`${tdClass} whitespace-nowrap`}>{formatDate(inv.createdAt)}</td>
              </tr>
            ))}
          </Table>
          {pager && (
            <Pager
              label="Pagination"
              {...pager}
              className="border-t border-slate-200 px-4 py-3 dark:border-slate-700"
            />
          )}
        </div>
      )}
    </div>
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
    <article aria-label={`Invoice ${inv.invoiceNumber}`} className="space-y-1 p-4 text-sm">
      <div className="flex items-start justify-between gap-3">
        <Link href={`/invoices/${inv.id}`} className={`${textLinkClass} break-all`}>
          {inv.invoiceNumber}
        </Link>
        <StatusBadge status={inv.status} />
      </div>
      <p className="break-words font-medium">{inv.clientName}</p>
      <p className="break-words text-xs text-slate-500 dark:text-slate-400">{inv.title}</p>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 pt-1">
        <span className="text-slate-600 dark:text-slate-300">Due {formatDate(inv.dueDate)}</span>
        <span className="text-right font-mono font-semibold" data-testid="invoice-card-total">
          <InvoiceTotal invoice={inv} />
        </span>
      </div>
    </article>
  );
}
