import type { ReactNode } from "react";
import { pageRange } from "@/lib/client/document-list";
import { Button } from "./button";

export const tdClass = "px-3 py-2 align-top text-slate-800 dark:text-slate-200";

/**
 * A column: its header text (or node), right-aligned for amounts and counts; `className`
 * goes on its header cell (a column hidden on phones: `max-sm:hidden`, its cells too).
 */
type ColumnSpec = { label: ReactNode; align?: "right"; className?: string };
export type Column = ReactNode | ColumnSpec;

/** A right-aligned column (amounts, counts). */
export const right = (label: ReactNode, className?: string): Column => ({
  label,
  align: "right",
  className,
});

const isSpec = (c: Column): c is ColumnSpec =>
  typeof c === "object" && c !== null && "label" in c && !("$$typeof" in c);

/**
 * Below `md` (phones), a stacked table: each row wraps its cells onto lines like a card and
 * the header row is read to screen readers only, so no action sits off screen.
 */
const STACKED =
  "max-md:[&_table]:block max-md:[&_tbody]:block max-md:[&_thead]:sr-only max-md:[&_tr]:flex max-md:[&_tr]:flex-wrap max-md:[&_tr]:items-center max-md:[&_tr]:gap-x-3 max-md:[&_tr]:py-2 max-md:[&_td]:py-1 max-md:[&_td]:text-left max-md:[&_tbody_th]:py-1 max-md:[&_td]:min-w-0 max-md:[&_th]:min-w-0 max-md:[&_td]:[overflow-wrap:anywhere] max-md:[&_th]:[overflow-wrap:anywhere]";

/**
 * A data table with a caption (read to screen readers only) and `scope="col"` headers, so
 * screen readers get the grid; scrolls sideways on narrow screens, or with `stacked` turns
 * each row into a card on phones.
 */
export function Table({
  caption,
  columns,
  children,
  busy,
  headClassName = "",
  className = "overflow-x-auto",
  stacked = false,
}: {
  caption: string;
  columns: Column[];
  children: ReactNode;
  busy?: boolean;
  headClassName?: string;
  className?: string;
  stacked?: boolean;
}) {
  return (
    // data-table: the wrapper whose width the overflow sweep checks (e2e/overflow.test.ts).
    // A long unbroken name or email (in a cell or a row header) may break anywhere rather than
    // widen the table past its card (amounts keep `whitespace-nowrap`, buttons stay whole).
    <div
      data-table
      className={`${stacked ? `${className} ${STACKED}` : className} [&_td]:[overflow-wrap:anywhere] [&_tbody_th]:[overflow-wrap:anywhere] [&_button]:whitespace-nowrap`}
    >
      <table
        className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-700"
        aria-busy={busy}
      >
        <caption className="sr-only">{caption}</caption>
        <thead className={headClassName}>
          <tr>
            {columns.map((c, i) => (
              <th
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed
                key={i}
                scope="col"
                className={`px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300 ${isSpec(c) && c.align === "right" ? "text-right" : "text-left"} ${isSpec(c) ? (c.className ?? "") : ""}`}
              >
                {isSpec(c) ? c.label : c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-700">{children}</tbody>
      </table>
    </div>
  );
}

/** A column header read only by screen readers (a row's buttons). */
export const ACTIONS_COLUMN = <span className="sr-only">Actions</span>;

/** "21–40 of 95" with Previous and Next, for the API's limit/offset pages. */
export function Pager({
  label,
  page,
  size,
  loading,
  onOffset,
  className = "",
}: {
  label: string;
  /** `totalExact` false: `total` is a bound, "more than" it match (a broad search). */
  page: { offset: number; total: number; totalExact?: boolean; hasMore: boolean; count: number };
  size: number;
  loading: boolean;
  onOffset: (offset: number) => void;
  className?: string;
}) {
  return (
    <nav
      aria-label={label}
      className={`flex flex-wrap items-center justify-between gap-3 ${className}`}
    >
      <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
        {pageRange(page)}
      </p>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          disabled={page.offset === 0 || loading}
          onClick={() => onOffset(Math.max(0, page.offset - size))}
        >
          Previous
        </Button>
        <Button
          variant="secondary"
          disabled={!page.hasMore || loading}
          onClick={() => onOffset(page.offset + size)}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}
