"use client";

import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field, OptionsSelect } from "@/components/ui/field";
import type { Options } from "@/components/ui/options";
import { EmptyState, Loading, PageHeader } from "@/components/ui/page";
import { type Column, Pager, Table, tdClass } from "@/components/ui/table";
import {
  type Debounced,
  debounce,
  listPath,
  SEARCH_DEBOUNCE_MS,
  searchOf,
  urlWithSearch,
} from "@/lib/client/document-list";
import { usePagedResource } from "@/lib/client/use-resource";

const PAGE_SIZE = 20;

/** A column of the wide-screen table: its header and what each row shows in it. */
export type DocumentColumn<T> = {
  header: Column;
  cell: (item: T) => ReactNode;
  /** The cells' classes besides the table's own (`tdClass`): alignment, wrapping. */
  className?: string;
};

/** A list page as the list endpoints answer it (GET /api/invoices, /api/quotes). */
type DocumentPage = { offset: number; total: number; hasMore: boolean };

/**
 * Filters a page adds to the shared ones (the invoice list's currency, network and client
 * email): their fields, what they send, whether one is set, how to clear them, and whether the
 * list may ask yet (`ready`: the invoice list waits for the remembered network).
 */
export type ExtraFilters = {
  fields: ReactNode;
  params: Record<string, string>;
  filtered: boolean;
  clear: () => void;
  submit?: () => void;
  ready?: boolean;
};

/**
 * One list of documents (invoices, quotes): the page header, a search box that asks as you
 * type (debounced, kept in the URL as `?q=`), the status filter and the sort, cards on phones
 * and the table on wider screens, the pager, and the empty state. The page gives its endpoint,
 * its words, its columns and its card.
 */
export function DocumentList<P extends DocumentPage, T extends { id: string }>({
  noun,
  title,
  description,
  actions,
  endpoint,
  items,
  statusOptions,
  sortOptions,
  defaultSort,
  extra,
  columns,
  card,
  empty,
  formClassName = "lg:grid-cols-4",
}: {
  /** "invoices", "quotes": the list's and the loading message's words. */
  noun: { plural: string; title: string };
  title: string;
  description: string;
  actions: ReactNode;
  endpoint: string;
  items: (page: P) => T[];
  statusOptions: Options;
  sortOptions: Options;
  defaultSort: string;
  extra?: ExtraFilters;
  columns: DocumentColumn<T>[];
  card: (item: T) => ReactNode;
  /** What shows when there is nothing at all (no filter, no search). */
  empty: ReactNode;
  /** The filter form's grid columns on wide screens. */
  formClassName?: string;
}) {
  const [status, setStatus] = useState("");
  const [sort, setSort] = useState(defaultSort);
  const search = useUrlSearch();
  const ready = search.ready && (extra?.ready ?? true);
  const path = ready
    ? listPath(endpoint, { status, ...extra?.params, sort, q: search.query })
    : null;
  const { data, error, loading, pager } = usePagedResource<P>(path, PAGE_SIZE, items);

  const narrowed = status !== "" || (extra?.filtered ?? false);
  const filtered = narrowed || search.query !== "";
  function clearFilters() {
    setStatus("");
    extra?.clear();
    search.clear();
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    search.flush();
    extra?.submit?.();
  }

  const list = data ? items(data) : [];
  return (
    <div className="space-y-6">
      <PageHeader title={title} description={description} actions={actions} />

      <form
        onSubmit={submit}
        aria-label={`Filter ${noun.plural}`}
        className={`grid grid-cols-1 gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 dark:border-slate-700 dark:bg-slate-900 ${formClassName}`}
      >
        <div className="flex items-end gap-2 sm:col-span-2">
          <Field
            label={`Search ${noun.plural}`}
            name="q"
            type="search"
            autoComplete="off"
            value={search.text}
            onChange={(e) => search.type(e.target.value)}
            className="min-w-0 flex-1"
            placeholder="Number, client, title…"
          />
          {search.text !== "" && (
            <Button variant="secondary" onClick={search.clear}>
              Clear<span className="sr-only"> search</span>
            </Button>
          )}
        </div>
        <OptionsSelect
          label="Status"
          any="All statuses"
          options={statusOptions}
          name="status"
          value={status}
          onChange={(e) => setStatus(e.target.value)}
        />
        <OptionsSelect
          label="Sort by"
          options={sortOptions}
          name="sort"
          value={sort}
          onChange={(e) => setSort(e.target.value)}
        />
        {extra?.fields}
        {filtered && (
          <div className="sm:col-span-2 lg:col-span-full">
            <Button variant="ghost" onClick={clearFilters}>
              Clear filters
            </Button>
          </div>
        )}
      </form>

      {error && <Alert>{error}</Alert>}
      {!data && loading && <Loading what={noun.plural} />}
      {data && data.total === 0 && (
        <EmptyState>
          {search.query !== "" ? (
            <p>
              No {noun.plural} match “{search.query}”{narrowed ? " with these filters" : ""}.
            </p>
          ) : filtered ? (
            <p>No {noun.plural} match these filters.</p>
          ) : (
            empty
          )}
        </EmptyState>
      )}
      {data && data.total > 0 && (
        <div className="rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
          {/* Phones get cards, wider screens the table. */}
          <ul
            aria-label={noun.title}
            aria-busy={loading}
            className="divide-y divide-slate-200 md:hidden dark:divide-slate-700"
          >
            {list.map((item) => (
              <li key={item.id}>{card(item)}</li>
            ))}
          </ul>
          <Table
            caption={noun.title}
            columns={columns.map((c) => c.header)}
            busy={loading}
            headClassName="bg-slate-50 dark:bg-slate-800"
            className="hidden overflow-x-auto md:block"
          >
            {list.map((item) => (
              <tr key={item.id}>
                {columns.map((c, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed
                  <td key={i} className={`${tdClass} ${c.className ?? ""}`}>
                    {c.cell(item)}
                  </td>
                ))}
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

/**
 * The search box's text and the search the list sends: the text as typed, the search once
 * typing pauses (SEARCH_DEBOUNCE_MS), both read from and written back to `?q=` in the URL
 * (history.replaceState, which Next's router follows), so a reload or a shared link keeps it.
 */
function useUrlSearch() {
  const [text, setText] = useState("");
  const [query, setQuery] = useState("");
  const [ready, setReady] = useState(false);
  const debounced = useRef<Debounced<string> | null>(null);

  useEffect(() => {
    const apply = (value: string) => {
      setQuery(value.trim());
      window.history.replaceState(null, "", urlWithSearch(window.location, value));
    };
    const d = debounce(apply, SEARCH_DEBOUNCE_MS);
    debounced.current = d;
    const initial = searchOf(window.location.search);
    setText(initial);
    setQuery(initial.trim());
    setReady(true);
    return () => d.cancel();
  }, []);

  return {
    text,
    query,
    ready,
    type(value: string) {
      setText(value);
      debounced.current?.push(value);
    },
    flush() {
      debounced.current?.flush();
    },
    clear() {
      setText("");
      debounced.current?.push("");
      debounced.current?.flush();
    },
  };
}
