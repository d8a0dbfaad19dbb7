import { randomUUID } from "node:crypto";
import type { Metadata } from "next";
import { cache } from "react";
import { CheckoutPanel } from "@/components/checkout/checkout-panel";
import { InvoiceSummary } from "@/components/checkout/invoice-summary";
import { LinkAmount } from "@/components/checkout/link-amount";
import { LinkInactive } from "@/components/checkout/link-inactive";
import { walletOptions } from "@/lib/client/wallets/options";
import { getConfig } from "@/lib/config";
import { taxIdLine } from "@/lib/domain/address";
import { NotFoundError } from "@/lib/domain/errors";
import { isPayable } from "@/lib/domain/invoice-state";
import { paymentLimit, takesCheckouts } from "@/lib/domain/link-payments";
import {
  formatMoney,
  formatPriced,
  networkOf,
  shortAddress,
  stellarNetworkName,
} from "@/lib/format";
import { messagesFor, schemeLabels, translator } from "@/lib/i18n";
import { logger } from "@/lib/logger";
import { getRuntime } from "@/lib/runtime";
import { quoteOf } from "@/lib/serializers/payments";
import { paidAndDueB, receivedPaymentB } from "@/lib/serializers/received-payments";
import type { ServiceContext } from "@/lib/services/context";
import { networkName } from "@/lib/services/invoices/network";
import { documentPaths } from "@/lib/services/invoices/public-documents";
import { getPublicInvoice } from "@/lib/services/invoices/view-invoice";
import { getLink, linkStatus } from "@/lib/services/links/links";
import { currentQuote } from "@/lib/services/payments/quotes";
import { getProfile, profileLogoPath } from "@/lib/services/profile/profile";
import { assetFor } from "@/lib/stellar/assets";
import { CheckoutGone } from "./gone";

/**
 * The public checkout, {APP_URL}/pay/<id>, for invoices and payment links (a link is an
 * invoice row of kind LINK). Rendered on the server straight from the services; only the
 * payment panel is a client component.
 */
export const dynamic = "force-dynamic";

type PageProps = { params: Promise<{ id: string }> };

const loadCheckout = cache(async (id: string) => {
  const runtime = await getRuntime();
  const ctx: ServiceContext = {
    db: runtime.database.db,
    config: runtime.config,
    now: () => new Date(),
    logger,
    requestId: randomUUID(),
  };
  try {
    const invoice = await getPublicInvoice(ctx, id);
    // A link past its expiry without payment is gone (404 `Link not found`; docs/decisions.md).
    const link = invoice.kind === "LINK" ? await getLink(ctx, id) : null;
    const asset = assetFor(
      runtime.config,
      networkName(invoice.networkPassphrase),
      invoice.currency,
    );
    // A fiat-priced invoice's live quote, as the status endpoint answers it: a reload keeps
    // the countdown, but not a quote a payment has made stale (docs/decisions.md, Fiat pricing).
    // A link its owner deactivated takes no new payment: no quote either.
    const inactive = link !== null && link.linkDeactivatedAt !== null && link.status !== "PAID";
    const quote =
      invoice.priceCurrency && isPayable(invoice.status) && !inactive
        ? await currentQuote(ctx.db, invoice, ctx.now())
        : undefined;
    // The freelancer's profile: logo, and name or company when the invoice has neither.
    const profile = await getProfile(ctx.db, invoice.freelancerWallet);
    // The client's document links, signed for this page (docs/decisions.md, Checkout documents).
    const documents = documentPaths(runtime.config, invoice.id);
    return {
      invoice,
      link,
      inactive,
      assetIssuer: asset.issuer,
      quote: quoteOf(quote ?? null),
      profile,
      documents,
    };
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
});

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  const data = await loadCheckout((await params).id);
  if (!data) return { title: "Invoice not found", robots: { index: false } };
  const { invoice, link } = data;
  const open = link?.linkOpenAmount;
  return {
    title: open
      ? `Pay: ${invoice.title}`
      : `Pay ${formatPriced(invoice.total, invoice, formatMoney)}: ${invoice.title}`,
    robots: { index: false, follow: false },
  };
}

export default async function CheckoutPage({ params }: PageProps) {
  const data = await loadCheckout((await params).id);
  if (!data) return <CheckoutGone />;
  const { invoice, link, inactive, assetIssuer, quote, profile, documents } = data;
  const payeeLabel =
    invoice.freelancerName ??
    invoice.freelancerCompany ??
    profile?.displayName ??
    profile?.company ??
    shortAddress(invoice.freelancerWallet);
  const logo = profileLogoPath(profile);
  const network = stellarNetworkName(invoice.networkPassphrase);
  const paid = invoice.status === "PAID" && invoice.transactionHash;
  // The client's language (docs/decisions.md, Languages): the labels the client reads. The
  // root layout owns <html lang>, so the page's root element carries the language.
  const lang = invoice.language;
  const tr = translator(lang);

  return (
    <div lang={lang} className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div className="mx-auto max-w-5xl px-4 py-3 text-sm font-semibold text-indigo-700 dark:text-indigo-300">
          Stellar Invoicing{" "}
          <span className="font-normal text-slate-600 dark:text-slate-300">
            {tr("checkout.secure")}
          </span>
        </div>
      </header>
      {networkOf(invoice.networkPassphrase) === "testnet" && (
        // Prominent and first: visible without scrolling on a phone (e2e/phone.test.ts).
        <div
          role="note"
          aria-label="Test network"
          className="border-b-2 border-amber-400 bg-amber-100 text-amber-950 dark:bg-amber-900 dark:text-amber-50"
        >
          <p className="mx-auto max-w-5xl px-4 py-3 text-sm sm:text-base">
            <strong className="font-semibold">{tr("checkout.testnetTitle")}</strong>{" "}
            {tr("checkout.testnetBody")}
          </p>
        </div>
      )}
      <main className="mx-auto max-w-5xl px-4 py-6 sm:py-10">
        <div className="mb-6">
          {logo && (
            // biome-ignore lint/performance/noImgElement: a stored image served by /api/profile/logo
            <img
              src={logo}
              alt={`${payeeLabel} logo`}
              data-testid="payee-logo"
              className="mb-3 h-12 w-auto max-w-[12rem] object-contain"
            />
          )}
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {invoice.kind === "LINK"
              ? tr("checkout.requestFrom")
              : tr("checkout.invoiceFrom", { number: invoice.invoiceNumber })}{" "}
            <span className="font-medium text-slate-900 dark:text-slate-100">{payeeLabel}</span>
          </p>
          <h1 className="mt-1 text-2xl font-semibold tracking-tight sm:text-3xl">
            {invoice.title}
          </h1>
        </div>
        <div className="grid gap-6 lg:grid-cols-5">
          <div className="lg:order-2 lg:col-span-2">
            {/* A reusable or open-amount link: the payer's own checkout first. */}
            {inactive ? (
              <LinkInactive payeeName={payeeLabel} />
            ) : link && takesCheckouts(link) ? (
              <LinkAmount
                linkId={link.id}
                amount={link.linkOpenAmount ? null : link.total}
                minAmount={link.linkMinAmount}
                currency={link.currency}
                priceCurrency={link.priceCurrency}
                status={linkStatus(link, new Date())}
                paymentsCount={link.paymentsCount}
                maxPayments={paymentLimit(link)}
                networkLabel={network}
              />
            ) : (
              <CheckoutPanel
                invoiceId={invoice.id}
                status={invoice.status}
                total={invoice.total}
                currency={invoice.currency}
                priceCurrency={invoice.priceCurrency}
                quoteTtlMinutes={invoice.quoteTtlMinutes}
                quote={quote}
                networkPassphrase={invoice.networkPassphrase}
                walletOptions={walletOptions(getConfig())}
                documents={documents}
                lang={lang}
                messages={messagesFor(lang, "checkout.")}
                networkLabel={network}
                payeeName={payeeLabel}
                dueDate={invoice.dueDate?.toISOString() ?? null}
                progress={{
                  ...paidAndDueB(invoice),
                  payments: invoice.payments.map(receivedPaymentB),
                }}
                receipt={
                  paid
                    ? {
                        transactionHash: paid,
                        ledgerNumber: invoice.ledgerNumber,
                        payerWallet: invoice.payerWallet,
                        paidAt: invoice.paidAt?.toISOString() ?? null,
                      }
                    : null
                }
              />
            )}
          </div>
          <div className="lg:order-1 lg:col-span-3">
            {link?.linkOpenAmount ? (
              invoice.description && (
                <p className="whitespace-pre-line text-sm text-slate-700 dark:text-slate-200">
                  {invoice.description}
                </p>
              )
            ) : (
              <InvoiceSummary
                invoice={invoice}
                assetIssuer={assetIssuer}
                networkLabel={network}
                lang={lang}
                taxIds={{
                  seller: taxIdLine(profile?.taxId, profile?.taxScheme, schemeLabels(lang)),
                  buyer: taxIdLine(
                    invoice.clientTaxId,
                    invoice.clientTaxScheme,
                    schemeLabels(lang),
                  ),
                }}
              />
            )}
          </div>
        </div>
        <p className="mt-8 text-center text-xs text-slate-600 dark:text-slate-300">
          {tr("checkout.footer", { network })}
        </p>
      </main>
    </div>
  );
}
