"use client";

import Link from "next/link";
import type { InvoicePage } from "@/components/invoices/types";
import { Amount } from "@/components/ui/amount";
import { textLinkClass } from "@/components/ui/button";
import { Alert, Card, StatusBadge } from "@/components/ui/card";
import { Muted } from "@/components/ui/page";
import { useResource } from "@/lib/client/use-resource";
import { formatDate } from "@/lib/format";
import type { QuotePageBody } from "@/lib/schemas/quotes";

const SHOWN = 10;

type Row = {
  id: string;
  href: string;
  number: string;
  status: string;
  date: string;
  total: React.ReactNode;
};

/**
 * The client's latest invoices and quotes (the lists' own `clientEmail` filter, newest first),
 * each linking to its page; the balance is the statement card's.
 */
export function ClientDocuments({ email }: { email: string }) {
  const q = `clientEmail=${encodeURIComponent(email)}&limit=${SHOWN}`;
  const invoices = useResource<InvoicePage>(email ? `/api/invoices?${q}` : null);
  const quotes = useResource<QuotePageBody>(email ? `/api/quotes?${q}` : null);
  const invoiceRows: Row[] | undefined = invoices.data?.invoices.map((inv) => ({
    id: inv.id,
    href: `/invoices/${inv.id}`,
    number: inv.invoiceNumber,
    status: inv.status,
    date: inv.dueDate ? `Due ${formatDate(inv.dueDate)}` : `Created ${formatDate(inv.createdAt)}`,
    total: <Amount value={inv.total} pricing={inv} withAsset />,
  }));
  const quoteRows: Row[] | undefined = quotes.data?.quotes.map((q) => ({
    id: q.id,
    href: `/quotes/${q.id}`,
    number: q.number,
    status: q.status,
    date: `Valid until ${formatDate(q.validUntil)}`,
    total: <Amount value={q.total} pricing={q} withAsset />,
  }));
  return (
    <Card title="Documents">
      <div className="grid gap-6 md:grid-cols-2">
        <DocumentRows
          heading="Invoices"
          rows={invoiceRows}
          total={invoices.data?.total}
          error={invoices.error}
        />
        <DocumentRows
          heading="Quotes"
          rows={quoteRows}
          total={quotes.data?.total}
          error={quotes.error}
        />
      </div>
    </Card>
  );
}

function DocumentRows({
  heading,
  rows,
  total,
  error,
}: {
  heading: string;
  rows: Row[] | undefined;
  total: number | undefined;
  error: string | null | undefined;
}) {
  return (
    <section aria-label={heading}>
      <h3 className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">{heading}</h3>
      {error && <Alert>{error}</Alert>}
      {rows && rows.length === 0 && <Muted>None yet.</Muted>}
      {rows && rows.length > 0 && (
        <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-700">
          {rows.map((r) => (
            <li key={r.id} className="flex flex-wrap items-baseline justify-between gap-x-3 py-2">
              <Link href={r.href} className={`${textLinkClass} break-all`}>
                {r.number}
              </Link>
              <StatusBadge status={r.status} />
              <span className="text-slate-600 dark:text-slate-300">{r.date}</span>
              <span className="font-mono">{r.total}</span>
            </li>
          ))}
        </ul>
      )}
      {total !== undefined && rows && total > rows.length && (
        <Muted className="mt-2">
          The {rows.length} latest of {total}.
        </Muted>
      )}
    </section>
  );
}
