import type { InputHTMLAttributes, ReactNode } from "react";

/** Next.js links that look like the ui/ buttons (navigation stays a link for the keyboard). */
export const linkButtonClass = {
  primary:
    "inline-flex items-center justify-center gap-2 rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2",
  secondary:
    "inline-flex items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700",
} as const;

/** Inline text links. */
export const textLinkClass =
  "font-medium text-indigo-700 underline-offset-2 hover:underline focus:outline-none focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-indigo-500 dark:text-indigo-300";

export function Checkbox({
  label,
  hint,
  id,
  className = "",
  ...props
}: { label: string; hint?: ReactNode } & Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  const fieldId = id ?? props.name;
  return (
    <div className={`flex items-start gap-2 ${className}`}>
      <input
        id={fieldId}
        type="checkbox"
        className="mt-0.5 h-4 w-4 rounded border-slate-300 text-indigo-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        {...props}
      />
      <label htmlFor={fieldId} className="text-sm text-slate-700 dark:text-slate-200">
        {label}
        {hint && <span className="block text-xs text-slate-500 dark:text-slate-400">{hint}</span>}
      </label>
    </div>
  );
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-100">{title}</h1>
        {description && (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</p>
        )}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/** A table header cell; every data table uses these so screen readers get the grid. */
export function Th({
  children,
  className = "",
  align = "left",
}: {
  children: ReactNode;
  className?: string;
  align?: "left" | "right";
}) {
  return (
    <th
      scope="col"
      className={`px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300 ${align === "right" ? "text-right" : "text-left"} ${className}`}
    >
      {children}
    </th>
  );
}

export const tableClass = "min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-700";
export const tdClass = "px-3 py-2 align-top text-slate-800 dark:text-slate-200";

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
      Loading {what}…
    </p>
  );
}

/** A Field hint readable in dark mode too (the ui/ hint colour is for light backgrounds). */
export function Hint({ children }: { children: ReactNode }) {
  return <span className="dark:text-slate-400">{children}</span>;
}
