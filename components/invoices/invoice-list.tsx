"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { usePreferredNetwork } from "@/components/dashboard/network-preference";
import { Button } from "@/components/ui/button";
import { Alert, StatusBadge } from "@/components/ui/card";
import { Field, Select } from "@/components/ui/field";
import { INVOICE_STATUSES } from "@/lib/domain/invoice-state";
import { CURRENCIES } from "@/lib/domain/money";
import { Loading, PageHeader, Th, tableClass, tdClass, textLinkClass } from "./controls";
import { formatAmount, formatDate, NETWORK_LABELS, NETWORK_NAMES, networkOf } from "./format";
import type { InvoicePage } from "./types";
import { useResource } from "./use-resource";

const PAGE_SIZE = 20;

const SORTS = [
  { value: "createdAt:desc", label: "Newest first" },
  { value: "createdAt:asc", label: "Oldest first" },
  { value: "dueDate:asc", label: "Due date, soonest first" },
  { value: "dueDate:desc", label: "Due date, latest first" },
  { value: "total:desc", label: "Total, highest first" },
  { value: "total:asc", label: "Total, lowest first" },
  { value: "invoiceNumber:asc", label: "Number, A to Z" },
  { value: "invoiceNumber:desc", label: "Number, Z to A" },
  { value: "status:asc", label: "State, A to Z" },
  { value: "updatedAt:desc", label: "Recently updated" },
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

function query(filters: Filters, offset: number): string {
  const q = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
  for (const key of ["status", "currency", "network", "sort"] as const) {
    if (filters[key]) q.set(key, filters[key]);
  }
  if (filters.clientEmail.trim()) q.set("clientEmail", filters.clientEmail.trim());
  return q.toString();
}

export function InvoiceList() {
  const router = useRouter();
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [email, setEmail] = useState("");
  const [offset, setOffset] = useState(0);
  // The list opens on the network chosen on the dashboard; picking one here remembers it too.
  const [preferred, setPreferred, ready] = usePreferredNetwork();
  const started = useRef(false);
  useEffect(() => {
    if (ready && !started.current) {
      started.current = true;
      setFilters((f) => ({ ...f, network: preferred }));
    }
  }, [ready, preferred]);
  const { data, error, loading } = useResource<InvoicePage>(
    ready ? `/api/invoices?${query(filters, offset)}` : null,
  );

  function change(key: keyof Filters, value: string) {
    setFilters((f) => ({ ...f, [key]: value }));
    setOffset(0);
    if (key === "network" && (value === "testnet" || value === "mainnet")) setPreferred(value);
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
  const first = data && data.total > 0 ? data.offset + 1 : 0;
  const last = data ? data.offset + data.invoices.length : 0;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Invoices"
        description="Drafts, sent and paid invoices. Payment links are listed on their own page."
        actions={<Button onClick={() => router.push("/invoices/new")}>New invoice</Button>}
      />

      <form
        onSubmit={applyEmail}
        aria-label="Filter invoices"
        className="grid grid-cols-1 gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-6 dark:border-slate-700 dark:bg-slate-900"
      >
        <Select
          label="Status"
          name="status"
          value={filters.status}
          onChange={(e) => change("status", e.target.value)}
        >
          <option value="">All statuses</option>
          {INVOICE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
        <Select
          label="Currency"
          name="currency"
          value={filters.currency}
          onChange={(e) => change("currency", e.target.value)}
        >
          <option value="">All currencies</option>
          {CURRENCIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </Select>
        <Select
          label="Network"
          name="network"
          value={filters.network}
          onChange={(e) => change("network", e.target.value)}
        >
          <option value="">All networks</option>
          {NETWORK_NAMES.map((n) => (
            <option key={n} value={n}>
              {NETWORK_LABELS[n]}
            </option>
          ))}
        </Select>
        <Select
          label="Sort by"
          name="sort"
          value={filters.sort}
          onChange={(e) => change("sort", e.target.value)}
        >
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </Select>
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
            <Button
              variant="ghost"
              onClick={() => {
                setFilters((f) => ({ ...EMPTY, network: f.network, sort: f.sort }));
                setEmail("");
                setOffset(0);
              }}
            >
              Clear filters
            </Button>
          </div>
        )}
      </form>

      {error && <Alert>{error}</Alert>}
      {!data && loading && <Loading what="invoices" />}
      {data && data.total === 0 && (
        <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center dark:border-slate-600">
          {filtered ? (
            <p className="text-sm text-slate-600 dark:text-slate-300">
              No invoices match these filters.
            </p>
          ) : (
            <div className="space-y-3">
              <p className="text-sm text-slate-600 dark:text-slate-300">
                You have no invoices{onNetwork} yet. Create one, send it, and share its payment
                link.
              </p>
              <Button onClick={() => router.push("/invoices/new")}>
                Create your first invoice
              </Button>
            </div>
          )}
        </div>
      )}
      {data && data.total > 0 && (
        <div className="rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
          <div className="overflow-x-auto">
            <table className={tableClass} aria-busy={loading}>
              <caption className="sr-only">Invoices</caption>
              <thead className="bg-slate-50 dark:bg-slate-800">
                <tr>
                  <Th>Number</Th>
                  <Th>Client and title</Th>
                  <Th>Status</Th>
                  <Th align="right">Total</Th>
                  <Th>Due</Th>
                  <Th>Network</Th>
                  <Th>Created</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
                {data.invoices.map((inv) => (
                  <tr key={inv.id}>
                    <td className={`${tdClass} whitespace-nowrap`}>
                      <Link href={`/invoices/${inv.id}`} className={textLinkClass}>
                        {inv.invoiceNumber}
                      </Link>
                    </td>
                    <td className={tdClass}>
                      <span className="block font-medium">{inv.clientName}</span>
                      <span className="block text-xs text-slate-500 dark:text-slate-400">
                        {inv.title}
                      </span>
                    </td>
                    <td className={tdClass}>
                      <StatusBadge status={inv.status} />
                    </td>
                    <td className={`${tdClass} whitespace-nowrap text-right font-mono`}>
                      {formatAmount(inv.total, inv.currency)}
                    </td>
                    <td className={`${tdClass} whitespace-nowrap`}>{formatDate(inv.dueDate)}</td>
                    <td className={tdClass}>{NETWORK_LABELS[networkOf(inv.networkPassphrase)]}</td>
                    <td className={`${tdClass} whitespace-nowrap`}>{formatDate(inv.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav
            aria-label="Pagination"
            className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 dark:border-slate-700"
          >
            <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
              {`${first}–${last} of ${data.total}`}
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
        </div>
      )}
    </div>
  );
}
