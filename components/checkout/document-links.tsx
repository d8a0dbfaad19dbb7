import { textLinkClass } from "@/components/ui/button";

/**
 * The client's documents (docs/decisions.md, Checkout documents): the invoice PDF, and once a
 * payment has counted, the receipt of what moved on the ledger. Capability links the server
 * signs for this page (lib/services/invoices/public-documents.ts): no sign-in.
 */
export function DocumentLinks({
  invoicePdf,
  receipt,
  hasReceipt,
}: {
  invoicePdf: string;
  receipt: string;
  hasReceipt: boolean;
}) {
  return (
    <nav aria-label="Documents" className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
      <a href={invoicePdf} download className={textLinkClass}>
        Download invoice (PDF)
      </a>
      {hasReceipt && (
        <a href={receipt} target="_blank" rel="noopener noreferrer" className={textLinkClass}>
          Download receipt
          <span className="sr-only"> (opens a printable receipt in a new tab)</span>
        </a>
      )}
    </nav>
  );
}
