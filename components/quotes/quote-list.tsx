"use client";

import Link from "next/link";
import { useState } from "react";
import { Amount } from "@/components/ui/amount";
import { buttonClass, textLinkClass } from "@/components/ui/button";
import { Alert, StatusBadge } from "@/components/ui/card";
import { OptionsSelect } from "@/components/ui/field";
import { EmptyState, Loading, Muted, PageHeader } from "@/components/ui/page";
import { Pager, right, Table, tdClass } from "@/components/ui/table";
import { useCan } from "@/lib/client/session";
import { usePagedResource } from "@/lib/client/use-resource";
import { QUOTE_STATUSES } from "@/lib/domain/quote-state";
import { formatDate, stateWords } from "@/lib/format";
import type { QuoteListItemBody, QuotePageBody } from "@/lib/schemas/quotes";

const PAGE_SIZE = 20;
const STATUS_OPTIONS: [string, string][] = QUOTE_STATUSES.map((s) => [s, stateWords(s)]);
const COLUMNS = ["Number", "Client and title", "Status", right("Total"), "Valid until"];

/**
 * The owner's quotes (GET /api/quotes), with the invoice list's pieces: the status filter, the
 * table on wide screens and cards on phones, the pager.
 */
export function QuoteList() {
  const [status, setStatus] = useState("");
  const { data, error, loading, pager } = usePagedResource<QuotePageBody>(
    status ? `/api/quotes?status=${status}` : "/api/quotes",
    PAGE_SIZE,
    (page) => page.quotes,
  );
  const writes = useCan()("write");
  const newQuote = writes && (
    <Link href="/quotes/new" className={buttonClass()}>
      New quote
    </Link>
  );
  return (
    <div className="space-y-6">
      <PageHeader
        title="Quotes"
        description="Estimates your clients accept online; an accepted quote becomes an invoice."
        actions={newQuote}
      />
      <div className="max-w-xs">
        <OptionsSelect
          label="Status"
          any="All statuses"
          options={STATUS_OPTIONS}
          name="status"
          value={status}
          onChange={(e) => setStatus(e.target.value)}
        />
      </div>
      {error && <Alert>{error}</Alert>}
      {!data && loading && <Loading what="quotes" />}
      {data && data.total === 0 && (
        <EmptyState>
          <Muted>
            {status ? "No quotes match this status." : "No quotes yet. Create one and send it."}
          </Muted>
        </EmptyState>
      )}
      {data && data.total > 0 && (
        <div className="rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
          <ul
            aria-label="Quotes"
            className="divide-y divide-slate-200 md:hidden dark:divide-slate-700"
          >
            {data.quotes.map((q) => (
              <li key={q.id}>
                <QuoteCard quote={q} />
              </li>
            ))}
          </ul>
          <Table
            caption="Quotes"
            columns={COLUMNS}
            busy={loading}
            headClassName="bg-slate-50 dark:bg-slate-800"
            className="hidden overflow-x-auto md:block"
          >
            {data.quotes.map((q) => (
              <tr key={q.id}>
                <td className={`${tdClass} whitespace-nowrap`}>
                  <Link href={`/quotes/${q.id}`} className={textLinkClass}>
                    {q.number}
                  </Link>
                </td>
                <td className={`${tdClass} break-words`}>
                  <span className="block font-medium">{q.clientName}</span>
                  <span className="block text-xs text-slate-500 dark:text-slate-400">
                    {q.title}
                  </span>
                </td>
                <td className={tdClass}>
                  <StatusBadge status={q.status} />
                </td>
                <td className={`${tdClass} whitespace-nowrap text-right font-mono`}>
                  <Amount value={q.total} pricing={q} withAsset />
                </td>
                <td className={`${tdClass} whitespace-nowrap`}>{formatDate(q.validUntil)}</td>
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

function QuoteCard({ quote: q }: { quote: QuoteListItemBody }) {
  return (
    <article aria-label={`Quote ${q.number}`} className="space-y-1 p-4 text-sm">
      <div className="flex items-start justify-between gap-3">
        <Link href={`/quotes/${q.id}`} className={`${textLinkClass} break-all`}>
          {q.number}
        </Link>
        <StatusBadge status={q.status} />
      </div>
      <p className="break-words font-medium">{q.clientName}</p>
      <p className="break-words text-xs text-slate-500 dark:text-slate-400">{q.title}</p>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 pt-1">
        <span className="text-slate-600 dark:text-slate-300">
          Valid until {formatDate(q.validUntil)}
        </span>
        <span className="text-right font-mono font-semibold">
          <Amount value={q.total} pricing={q} withAsset />
        </span>
      </div>
    </article>
  );
}
