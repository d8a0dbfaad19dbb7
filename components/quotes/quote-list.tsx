"use client";

import Link from "next/link";
import { ClientAndTitle, DocumentCard } from "@/components/documents/document-card";
import { type DocumentColumn, DocumentList } from "@/components/documents/document-list";
import { Amount } from "@/components/ui/amount";
import { buttonClass, textLinkClass } from "@/components/ui/button";
import { StatusBadge } from "@/components/ui/card";
import { Muted } from "@/components/ui/page";
import { right } from "@/components/ui/table";
import { useCan } from "@/lib/client/session";
import { QUOTE_STATUSES } from "@/lib/domain/quote-state";
import { formatDate, stateWords } from "@/lib/format";
import type { QuoteListItemBody, QuotePageBody } from "@/lib/schemas/quotes";

const STATUS_OPTIONS: [string, string][] = QUOTE_STATUSES.map((s) => [s, stateWords(s)]);
/** The invoice list's sorts where a quote has the field (QUOTE_SORT_FIELDS, lib/schemas/quotes.ts). */
const SORT_OPTIONS = [
  ["createdAt:desc", "Newest first"],
  ["createdAt:asc", "Oldest first"],
  ["validUntil:asc", "Valid until, soonest first"],
  ["validUntil:desc", "Valid until, latest first"],
  ["total:desc", "Total, highest first"],
  ["total:asc", "Total, lowest first"],
  ["number:asc", "Number, A to Z"],
  ["number:desc", "Number, Z to A"],
  ["status:asc", "State, A to Z"],
  ["updatedAt:desc", "Recently updated"],
] as const;

const COLUMNS: DocumentColumn<QuoteListItemBody>[] = [
  {
    header: "Number",
    className: "whitespace-nowrap",
    cell: (q) => (
      <Link href={`/quotes/${q.id}`} className={textLinkClass}>
        {q.number}
      </Link>
    ),
  },
  {
    header: "Client and title",
    className: "break-words",
    cell: (q) => <ClientAndTitle name={q.clientName} title={q.title} />,
  },
  { header: "Status", cell: (q) => <StatusBadge status={q.status} /> },
  {
    header: right("Total"),
    className: "whitespace-nowrap text-right font-mono",
    cell: (q) => <Amount value={q.total} pricing={q} withAsset />,
  },
  { header: "Valid until", className: "whitespace-nowrap", cell: (q) => formatDate(q.validUntil) },
];

/** The owner's quotes (GET /api/quotes): the invoice list's component with the quote's columns. */
export function QuoteList() {
  const writes = useCan()("write");
  return (
    <DocumentList<QuotePageBody, QuoteListItemBody>
      noun={{ plural: "quotes", title: "Quotes" }}
      title="Quotes"
      description="Estimates your clients accept online; an accepted quote becomes an invoice."
      actions={
        writes && (
          <Link href="/quotes/new" className={buttonClass()}>
            New quote
          </Link>
        )
      }
      endpoint="/api/quotes"
      items={(page) => page.quotes}
      statusOptions={STATUS_OPTIONS}
      sortOptions={SORT_OPTIONS}
      defaultSort="createdAt:desc"
      columns={COLUMNS}
      card={(q) => (
        <DocumentCard
          label={`Quote ${q.number}`}
          href={`/quotes/${q.id}`}
          number={q.number}
          status={q.status}
          clientName={q.clientName}
          title={q.title}
          date={`Valid until ${formatDate(q.validUntil)}`}
          total={<Amount value={q.total} pricing={q} withAsset />}
        />
      )}
      empty={<Muted>No quotes yet. Create one and send it.</Muted>}
    />
  );
}
