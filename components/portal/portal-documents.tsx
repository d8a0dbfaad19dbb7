"use client";

import { buttonClass, textLinkClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { right, Table, tdClass } from "@/components/ui/table";
import { formatAmount } from "@/lib/format";
import type { Language } from "@/lib/i18n";
import { formatDay, localizeAmount } from "@/lib/i18n/format";
import type { PortalInvoice, PortalView, Translate } from "./types";

const isZero = (v: string) => /^-?0(\.0*)?$/.test(v);

/** An invoice's status in the client's words ("Awaiting payment", "Partly paid", "Paid"). */
function invoiceWords(i: PortalInvoice, t: Translate): string {
  if (i.status === "PENDING" && !isZero(i.amountPaid) && !isZero(i.amountDue))
    return t("portal.partlyPaid");
  return t(`portal.inv.${i.status}`);
}

const canPay = (i: PortalInvoice) =>
  !isZero(i.amountDue) && (i.status === "PENDING" || i.status === "FAILED");

/** The client's invoices, quotes, credit notes and payments, each with its downloads. */
export function PortalDocuments({
  view,
  t,
  lang,
}: {
  view: PortalView;
  t: Translate;
  lang: Language;
}) {
  const money = (v: string, unit: string) => localizeAmount(formatAmount(v, unit), lang);
  const day = (iso: string) => formatDay(new Date(iso), lang);
  const none = <p className="text-sm text-slate-600 dark:text-slate-300">{t("portal.none")}</p>;
  const link = `${textLinkClass} whitespace-nowrap`;

  return (
    <div className="space-y-6">
      <Card title={t("portal.invoices")}>
        {view.invoices.length === 0 ? (
          none
        ) : (
          <Table
            stacked
            caption={t("portal.invoices")}
            columns={[
              t("portal.number"),
              t("portal.status"),
              right(t("portal.total")),
              right(t("portal.amountDue")),
              t("portal.dueDate"),
              <span key="a" className="sr-only">
                {t("portal.pdf")}
              </span>,
            ]}
          >
            {view.invoices.map((i) => (
              <tr key={i.id} data-testid="portal-invoice">
                <th scope="row" className={`${tdClass} text-left font-medium`}>
                  {i.number}
                </th>
                <td className={tdClass} data-testid="portal-invoice-status">
                  {invoiceWords(i, t)}
                </td>
                <td className={`${tdClass} whitespace-nowrap md:text-right`}>
                  {money(i.total, i.currency)}
                </td>
                <td className={`${tdClass} whitespace-nowrap md:text-right`}>
                  {money(i.amountDue, i.currency)}
                </td>
                <td className={tdClass}>{i.dueDate ? day(i.dueDate) : "—"}</td>
                <td className={tdClass}>
                  <div className="flex flex-wrap items-center gap-3">
                    {canPay(i) && (
                      <a href={i.payUrl} className={buttonClass("primary", "py-1.5")}>
                        {t("portal.pay", { number: i.number })}
                      </a>
                    )}
                    <a href={i.pdfUrl} className={link} download>
                      {t("portal.pdf")}
                      <span className="sr-only"> {i.number}</span>
                    </a>
                    {i.receiptUrl && (
                      <a href={i.receiptUrl} className={link}>
                        {t("portal.receipt")}
                        <span className="sr-only"> {i.number}</span>
                      </a>
                    )}
                    {i.eInvoiceUrls.map((e) => (
                      <a key={e.format} href={e.url} className={link} download>
                        {t("portal.einvoice", { format: e.format === "cii" ? "CII" : "XRechnung" })}
                        <span className="sr-only"> {i.number}</span>
                      </a>
                    ))}
                  </div>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Card>

      <Card title={t("portal.quotes")}>
        {view.quotes.length === 0 ? (
          none
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-700">
            {view.quotes.map((q) => (
              <li key={q.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0 text-sm">
                  <p className="font-medium [overflow-wrap:anywhere]">
                    {q.number} · {q.title}
                  </p>
                  <p className="text-slate-700 dark:text-slate-200">
                    {t(`quote.status.${q.status}`)} · {money(q.total, q.currency)} ·{" "}
                    {t("quote.validUntil", { date: day(`${q.validUntil}T00:00:00Z`) })}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-3">
                  <a href={q.pageUrl} className={buttonClass("secondary", "py-1.5")}>
                    {t("portal.openQuote", { number: q.number })}
                  </a>
                  <a href={q.pdfUrl} className={link} download>
                    {t("portal.pdf")}
                    <span className="sr-only"> {q.number}</span>
                  </a>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card title={t("portal.creditNotes")}>
        {view.creditNotes.length === 0 ? (
          none
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-700">
            {view.creditNotes.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <p className="text-sm">
                  <span className="font-medium">{c.number}</span> · {t("portal.invoice")}{" "}
                  {c.invoiceNumber} · {money(c.total, c.currency)} · {day(c.createdAt)}
                </p>
                <a href={c.pdfUrl} className={link} download>
                  {t("portal.pdf")}
                  <span className="sr-only"> {c.number}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card title={t("portal.payments")}>
        {view.payments.length === 0 ? (
          none
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-700">
            {view.payments.map((p) => (
              <li
                key={p.id}
                data-testid="portal-payment"
                className="flex flex-wrap items-center justify-between gap-3 py-3"
              >
                <p className="text-sm">
                  {day(p.confirmedAt)} · {t("portal.invoice")} {p.invoiceNumber} ·{" "}
                  <span className="whitespace-nowrap">{money(p.amount, p.asset)}</span>
                </p>
                <a href={p.receiptUrl} className={link}>
                  {t("portal.receipt")}
                  <span className="sr-only"> {p.invoiceNumber}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
