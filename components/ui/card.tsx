import type { ReactNode } from "react";
import { shownStatus, stateWords } from "@/lib/format";

export function Card({
  title,
  children,
  className = "",
  actions,
}: {
  title?: ReactNode;
  children: ReactNode;
  className?: string;
  actions?: ReactNode;
}) {
  return (
    <section
      className={`rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900 ${className}`}
    >
      {(title || actions) && (
        <div className="mb-4 flex items-center justify-between gap-4">
          {title && (
            <h2 className="text-base font-semibold text-slate-900 dark:text-slate-100">{title}</h2>
          )}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

export function Alert({
  kind = "error",
  children,
}: {
  kind?: "error" | "info" | "success";
  children: ReactNode;
}) {
  const styles = {
    error:
      "border-red-200 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200",
    info: "border-sky-200 bg-sky-50 text-sky-800 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-200",
    success:
      "border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  }[kind];
  return (
    <div
      role={kind === "error" ? "alert" : "status"}
      className={`rounded-md border px-4 py-3 text-sm [overflow-wrap:anywhere] ${styles}`}
    >
      {children}
    </div>
  );
}

const statusStyles: Record<string, string> = {
  DRAFT: "bg-slate-100 text-slate-700",
  PENDING: "bg-amber-100 text-amber-800",
  PAID: "bg-emerald-100 text-emerald-800",
  FAILED: "bg-red-100 text-red-800",
  EXPIRED: "bg-slate-200 text-slate-700",
  CANCELLED: "bg-slate-200 text-slate-600",
  ACTIVE: "bg-amber-100 text-amber-800",
};

/**
 * An invoice's status as the screens show it: PROCESSING shows as PENDING, since nothing
 * stored says a transaction is on its way (`shownStatus`, lib/format.ts).
 */
export function StatusBadge({ status }: { status: string }) {
  const shown = shownStatus(status);
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${statusStyles[shown] ?? "bg-slate-100 text-slate-700"}`}
    >
      {stateWords(shown)}
    </span>
  );
}
