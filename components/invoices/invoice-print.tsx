"use client";

import Link from "next/link";
import { Button, buttonClass } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Loading } from "@/components/ui/page";
import { QrCode } from "@/components/ui/qr-code";
import { useResource } from "@/lib/client/use-resource";
import { partyLines } from "@/lib/domain/address";
import { isPayable } from "@/lib/domain/invoice-state";
import { shownStatus } from "@/lib/format";
import type { ProfileBody } from "@/lib/schemas/profile";
import { InvoiceDocument } from "./invoice-document";
import { usePaymentPageUrl } from "./payment-link-card";
import type { OwnerInvoice } from "./types";

// The app shell's header and dark backgrounds have no place on paper.
const PRINT_CSS = `
@media print {
  header { display: none !important; }
  html, body, body > div { background: #fff !important; color: #000 !important; }
  main { max-width: none !important; padding: 0 !important; }
  @page { margin: 16mm; }
}
`;

/**
 * A clean, paper-shaped invoice with a Print button (window.print()). Like the PDF
 * (lib/services/invoices/pdf-render.ts, fed by `pdfProfile`), it carries the owner's
 * business profile: the logo at the top, the address and tax id under "From".
 */
export function InvoicePrint({ id }: { id: string }) {
  const { data: invoice, error } = useResource<OwnerInvoice>(`/api/invoices/${id}/owner`);
  const { data: profile, loading: profileLoading } = useResource<ProfileBody>("/api/profile");
  const link = usePaymentPageUrl(id);

  if (error) return <Alert>{error}</Alert>;
  // The profile is awaited too (a failure prints without it), so what prints is complete.
  if (!invoice || profileLoading) return <Loading what="invoice" />;
  // The same lines the PDF prints under FROM (lib/domain/address.ts partyLines).
  const fromLines = profile ? partyLines(profile) : [];

  return (
    <div>
      <style>{PRINT_CSS}</style>
      <div className="mb-6 flex flex-wrap gap-2 print:hidden">
        <Button onClick={() => window.print()}>Print</Button>
        <Link href={`/invoices/${id}`} className={buttonClass("secondary")}>
          Back to invoice
        </Link>
      </div>
      <article
        aria-label={`Invoice ${invoice.invoiceNumber}`}
        className="mx-auto max-w-3xl rounded-lg border border-slate-200 bg-white p-4 sm:p-8 text-slate-900 shadow-sm print:max-w-none print:border-0 print:p-0 print:shadow-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 print:dark:bg-white print:dark:text-black"
      >
        <div className="mb-8 flex flex-wrap items-start justify-between gap-4">
          <div>
            <h1 className="text-3xl font-semibold">Invoice</h1>
            <p className="mt-1 text-lg">{invoice.title}</p>
          </div>
          {profile?.logoUrl && (
            // biome-ignore lint/performance/noImgElement: the owner's stored logo, any size or type
            <img
              src={profile.logoUrl}
              alt={`${invoice.freelancerCompany ?? invoice.freelancerName ?? "Your"} logo`}
              className="max-h-12 max-w-36 object-contain"
              data-testid="print-logo"
            />
          )}
          <p className="rounded border border-slate-400 px-3 py-1 text-sm font-semibold uppercase tracking-wide">
            Status: {shownStatus(invoice.status)}
          </p>
        </div>
        <h2 className="sr-only">Invoice details</h2>
        <InvoiceDocument invoice={invoice} fromLines={fromLines} />
        {link && isPayable(invoice.status) && (
          <div className="mt-8 flex flex-wrap items-center gap-6 border-t border-slate-200 pt-6 dark:border-slate-700">
            <QrCode
              value={link}
              label={`QR code for the payment page of ${invoice.invoiceNumber}`}
              size={128}
            />
            <div className="min-w-0 text-sm">
              <p className="font-semibold">Pay online</p>
              <p className="break-all font-mono text-xs">{link}</p>
              <p className="mt-1 text-slate-600 dark:text-slate-300 print:text-slate-700">
                Use memo {invoice.invoiceNumber} when paying by hand.
              </p>
            </div>
          </div>
        )}
      </article>
    </div>
  );
}
