import { useId } from "react";
import { formatTrimmed } from "@/lib/format";

export type MonthRevenue = { month: string; amount: string };

const monthName = new Intl.DateTimeFormat("en-GB", { month: "short", timeZone: "UTC" });
const monthYear = new Intl.DateTimeFormat("en-GB", {
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

function monthDate(month: string): Date {
  const [y, m] = month.split("-").map((part) => Number.parseInt(part, 10));
  return new Date(Date.UTC(y, m - 1, 1));
}

const W = 360;
const H = 150;
const PAD_TOP = 8;
const PAD_BOTTOM = 22;

/**
 * Revenue per month as an inline SVG bar chart. Amounts stay strings for every label; Number()
 * is used only for the bar heights, a visual ratio where a rounding error cannot matter.
 * Screen readers get the same data as a table.
 */
export function RevenueChart({ asset, months }: { asset: string; months: MonthRevenue[] }) {
  const titleId = useId();
  const descId = useId();
  const values = months.map((m) => Number(m.amount) || 0);
  const max = Math.max(0, ...values);
  const plot = H - PAD_TOP - PAD_BOTTOM;
  const slot = W / Math.max(1, months.length);
  const bar = Math.max(4, slot * 0.6);
  const first = months[0];
  const last = months[months.length - 1];

  return (
    <figure className="mt-4">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        className="h-auto w-full text-indigo-600 dark:text-indigo-400"
      >
        <title id={titleId}>{`${asset} revenue by month`}</title>
        <desc id={descId}>
          {max === 0
            ? "No paid invoices in the last 12 months."
            : `Payments received from ${first ? monthYear.format(monthDate(first.month)) : ""} to ${last ? monthYear.format(monthDate(last.month)) : ""}, highest ${formatTrimmed(months[values.indexOf(max)]?.amount, asset)}.`}
        </desc>
        <line
          x1={0}
          x2={W}
          y1={H - PAD_BOTTOM + 0.5}
          y2={H - PAD_BOTTOM + 0.5}
          className="stroke-slate-300 dark:stroke-slate-600"
        />
        {months.map((m, i) => {
          const h = max > 0 ? (values[i] / max) * plot : 0;
          const x = i * slot + (slot - bar) / 2;
          return (
            <g key={m.month}>
              <rect
                x={x}
                y={H - PAD_BOTTOM - h}
                width={bar}
                height={Math.max(h, values[i] > 0 ? 1 : 0)}
                rx={2}
                className="fill-current"
              >
                <title>{`${monthYear.format(monthDate(m.month))}: ${formatTrimmed(m.amount, asset)}`}</title>
              </rect>
              <text
                x={i * slot + slot / 2}
                y={H - 6}
                textAnchor="middle"
                className="fill-slate-500 text-[10px] dark:fill-slate-400"
              >
                {monthName.format(monthDate(m.month))}
              </text>
            </g>
          );
        })}
        {max === 0 && (
          <text
            x={W / 2}
            y={PAD_TOP + plot / 2}
            textAnchor="middle"
            className="fill-slate-500 text-[12px] dark:fill-slate-400"
          >
            No paid invoices yet
          </text>
        )}
      </svg>
      <table className="sr-only">
        <caption>{`${asset} revenue by month`}</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">Revenue</th>
          </tr>
        </thead>
        <tbody>
          {months.map((m) => (
            <tr key={m.month}>
              <th scope="row">{monthYear.format(monthDate(m.month))}</th>
              <td>{formatTrimmed(m.amount, asset)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
