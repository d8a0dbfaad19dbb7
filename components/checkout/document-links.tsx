import { textLinkClass } from "@/components/ui/button";
import { type Language, t } from "@/lib/i18n";

/**
 * The client's documents (docs/decisions.md, Checkout documents): the invoice PDF, and once a
 * payment has counted, the receipt of what moved on the ledger. Capability links the server
 * signs for this page (lib/services/invoices/public-documents.ts): no sign-in.
 */
export function DocumentLinks({
  invoicePdf,
  receipt,
  hasReceipt,
  lang = "en",
}: {
  invoicePdf: string;
  receipt: string;
  hasReceipt: boolean;
  lang?: Language;
}) {
  return (
    <nav aria-label="Documents" className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
      <a href={invoicePdf} download className={textLinkClass}>
        {t(lang, "checkout.downloadInvoice")}
      </a>
      {hasReceipt && (
        <a href={receipt} target="_blank" rel="noopener noreferrer" className={textLinkClass}>
          {t(lang, "checkout.downloadReceipt")}
          <span className="sr-only"> (opens a printable receipt in a new tab)</span>
        </a>
      )}
    </nav>
  );
}
