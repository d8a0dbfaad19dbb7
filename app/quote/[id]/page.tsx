import { randomUUID } from "node:crypto";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { QuoteAnswer } from "@/components/quotes/quote-answer";
import { QuoteLines } from "@/components/quotes/quote-lines";
import { buttonClass, textLinkClass } from "@/components/ui/button";
import { NotFoundError } from "@/lib/domain/errors";
import { formatPriced, networkOf, shortAddress } from "@/lib/format";
import { type MessageKey, translator } from "@/lib/i18n";
import { formatDay, localizeAmount } from "@/lib/i18n/format";
import { logger } from "@/lib/logger";
import { getRuntime } from "@/lib/runtime";
import type { ServiceContext } from "@/lib/services/context";
import { getLiveInvoice } from "@/lib/services/invoices/store";
import { getPublicQuote } from "@/lib/services/quotes/quotes";

/**
 * The client's quote page, {APP_URL}/quote/<id> (docs/decisions.md, Quotes): in the quote's
 * language, the offer, its PDF, and the answer (accept by typing a name, or decline with a
 * reason). Rendered on the server from the services; only the answer form is a client component.
 */
export const dynamic = "force-dynamic";

type PageProps = { params: Promise<{ id: string }> };

const load = cache(async (id: string) => {
  const runtime = await getRuntime();
  const ctx: ServiceContext = {
    db: runtime.database.db,
    config: runtime.config,
    now: () => new Date(),
    logger,
    requestId: randomUUID(),
  };
  try {
    const quote = await getPublicQuote(ctx, id);
    // The invoice made from it, once it is sent: the client can pay it from here.
    const invoice = quote.invoiceId
      ? await getLiveInvoice(ctx.db, quote.invoiceId).catch(() => null)
      : null;
    return { quote, invoicePayable: invoice !== null && invoice.status !== "DRAFT" };
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
});

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  const data = await load((await params).id);
  if (!data) return { title: "Quote not found", robots: { index: false } };
  const tr = translator(data.quote.language);
  return {
    title: `${tr("quote.heading", { number: data.quote.number })}: ${data.quote.title}`,
    robots: { index: false, follow: false },
  };
}

export default async function QuotePage({ params }: PageProps) {
  const data = await load((await params).id);
  if (!data) notFound();
  const { quote, invoicePayable } = data;
  const lang = quote.language;
  const tr = translator(lang);
  const body = quote.body as { freelancerName?: string | null; freelancerCompany?: string | null };
  const from = body.freelancerName ?? body.freelancerCompany ?? shortAddress(quote.wallet);
  const day = (d: Date) => formatDay(d, lang);
  const validUntil = day(new Date(`${quote.validUntil}T00:00:00Z`));
  const words = Object.fromEntries(
    (
      [
        "acceptTitle",
        "acceptHint",
        "nameLabel",
        "accept",
        "declineTitle",
        "reasonLabel",
        "decline",
        "failed",
      ] as const
    ).map((k) => [k, tr(`quote.${k}` as MessageKey, k === "failed" ? { error: "{error}" } : {})]),
  ) as Parameters<typeof QuoteAnswer>[0]["words"];

  return (
    <div lang={lang} className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div className="mx-auto max-w-4xl px-4 py-3 text-sm font-semibold text-indigo-700 dark:text-indigo-300">
          Stellar Invoicing
        </div>
      </header>
      <main className="mx-auto max-w-4xl space-y-6 px-4 py-6 sm:py-10">
        <div>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {tr("quote.heading", { number: quote.number })} ·{" "}
            <span className="font-medium text-slate-900 dark:text-slate-100">{from}</span>
          </p>
          <h1 className="mt-1 text-2xl font-semibold tracking-tight sm:text-3xl [overflow-wrap:anywhere]">
            {quote.title}
          </h1>
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-200">
            <span
              data-testid="quote-status"
              className="mr-2 inline-flex rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-800 dark:bg-slate-800 dark:text-slate-100"
            >
              {tr(`quote.status.${quote.status}` as MessageKey)}
            </span>
            {tr("quote.validUntil", { date: validUntil })}
          </p>
        </div>
        <div className="grid gap-6 lg:grid-cols-5">
          <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5 lg:col-span-3 dark:border-slate-700 dark:bg-slate-900">
            {typeof (quote.body as { description?: unknown }).description === "string" && (
              <p className="mb-4 whitespace-pre-line text-sm text-slate-700 dark:text-slate-200">
                {(quote.body as { description: string }).description}
              </p>
            )}
            <QuoteLines
              quote={quote}
              localize={(s) => localizeAmount(s, lang)}
              labels={{
                description: tr("quote.description"),
                quantity: tr("quote.quantity"),
                amount: tr("quote.amount", { unit: quote.priceCurrency ?? quote.currency }),
                subtotal: tr("quote.subtotal"),
                tax: tr("quote.tax"),
                discount: tr("quote.discount"),
                total: tr("quote.total"),
              }}
            />
            <p className="mt-4 text-xs text-slate-600 dark:text-slate-300">
              {tr("quote.paidIn", { asset: quote.currency })}
              {networkOf(quote.networkPassphrase) === "testnet" && " (testnet)"}
            </p>
            <a
              href={`/api/quotes/${quote.id}/pdf`}
              className={buttonClass("secondary", "mt-4")}
              download
            >
              {tr("quote.downloadPdf")}
            </a>
          </section>
          <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5 lg:col-span-2 dark:border-slate-700 dark:bg-slate-900">
            <p className="mb-3 text-lg font-semibold">
              {tr("quote.total")}: {localizeAmount(formatPriced(quote.total, quote), lang)}
            </p>
            {quote.status === "SENT" && <QuoteAnswer quoteId={quote.id} words={words} />}
            {(quote.status === "CONVERTED" || quote.status === "ACCEPTED") && (
              <div role="status" className="space-y-2 text-sm">
                <p>
                  {tr("quote.acceptedBy", {
                    name: quote.acceptedName ?? "",
                    date: day(quote.acceptedAt ?? quote.updatedAt),
                  })}
                </p>
                <p>{tr("quote.invoiceReady")}</p>
                {invoicePayable && quote.invoiceId && (
                  <a href={`/pay/${quote.invoiceId}`} className={textLinkClass}>
                    {tr("quote.viewInvoice")}
                  </a>
                )}
              </div>
            )}
            {quote.status === "DECLINED" && (
              <p role="status" className="text-sm">
                {tr("quote.declinedOn", { date: day(quote.declinedAt ?? quote.updatedAt) })}
              </p>
            )}
            {quote.status === "EXPIRED" && (
              <p role="status" className="text-sm">
                {tr("quote.expiredOn", { date: validUntil })}
              </p>
            )}
          </section>
        </div>
      </main>
    </div>
  );
}
