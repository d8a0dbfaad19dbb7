import type { ComponentProps, ReactNode } from "react";

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
        {description && <Muted className="mt-1">{description}</Muted>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
      Loading {what}…
    </p>
  );
}

/** A line of secondary text. */
export function Muted({ className = "", ...props }: ComponentProps<"p">) {
  return <p className={`text-sm text-slate-600 dark:text-slate-300 ${className}`} {...props} />;
}

/** The dashed box a list shows while it has nothing in it. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-sm text-slate-600 dark:border-slate-600 dark:text-slate-300">
      {children}
    </div>
  );
}

/** A label over a value, inside a `<dl>`. */
export function Pair({
  label,
  children,
  className = "",
}: {
  label: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div>
      <dt className="text-xs text-slate-500 dark:text-slate-400 print:text-slate-600">{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}
