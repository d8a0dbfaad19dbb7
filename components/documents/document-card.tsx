import Link from "next/link";
import type { ReactNode } from "react";
import { textLinkClass } from "@/components/ui/button";
import { StatusBadge } from "@/components/ui/card";

/** The client's name over the document's title (the lists' table cell). */
export function ClientAndTitle({ name, title }: { name: string; title: string }) {
  return (
    <>
      <span className="block font-medium">{name}</span>
      <span className="block text-xs text-slate-500 dark:text-slate-400">{title}</span>
    </>
  );
}

/**
 * A document on a phone (an invoice, a quote): the number links to it; status, client, title,
 * its date line and the total show.
 */
export function DocumentCard({
  label,
  href,
  number,
  status,
  clientName,
  title,
  date,
  total,
  totalTestId,
}: {
  label: string;
  href: string;
  number: string;
  status: string;
  clientName: string;
  title: string;
  date: string;
  total: ReactNode;
  totalTestId?: string;
}) {
  return (
    <article aria-label={label} className="space-y-1 p-4 text-sm">
      <div className="flex items-start justify-between gap-3">
        <Link href={href} className={`${textLinkClass} break-all`}>
          {number}
        </Link>
        <StatusBadge status={status} />
      </div>
      <p className="break-words font-medium">{clientName}</p>
      <p className="break-words text-xs text-slate-500 dark:text-slate-400">{title}</p>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 pt-1">
        <span className="text-slate-600 dark:text-slate-300">{date}</span>
        <span className="text-right font-mono font-semibold" data-testid={totalTestId}>
          {total}
        </span>
      </div>
    </article>
  );
}
