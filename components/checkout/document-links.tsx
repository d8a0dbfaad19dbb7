import { textLinkClass } from "@/components/ui/button";
import { fill, type Messages } from "@/lib/i18n/fill";

/**
 * The client's documents (docs/decisions.md, Checkout documents): the invoice PDF, and once a
 * payment has counted, the receipt of what moved on the ledger. Capability links the server
 * signs for this page (lib/services/invoices/public-documents.ts): no sign-in.
 */
export function DocumentLinks({
  invoicePdf,
  receipt,
  hasReceipt,
  messages,
}: {
  invoicePdf: string;
  receipt: string;
  hasReceipt: boolean;
  /** The checkout's messages in the invoice's language (`messagesFor(lang, "checkout.")`). */
  messages: Messages;
}) {
  return (
    <nav aria-label="Documents" className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
      <a href={invoicePdf} download className={textLinkClass}>
        {fill(messages, "checkout.downloadInvoice")}
      </a>
      {hasReceipt && (
        <a href={receipt} target="_blank" rel="noopener noreferrer" className={textLinkClass}>
          {fill(messages, "checkout.downloadReceipt")}
          <span className="sr-only"> (opens a printable receipt in a new tab)</span>
        </a>
      )}
    </nav>
  );
}
