import { RefundEmail } from "@/emails/refund";
import { formatMoney, formatUtcDateTime } from "@/lib/format";
import { emailMoment, localizeAmount } from "@/lib/i18n/format";
import type { RefundEmailPayload } from "../refund-email";
import type { EmailTemplate } from "../render";

/** The refund email: from its payload (what the ledger showed when it was recorded). */
export const refundTemplate: EmailTemplate = async ({ message, invoice, frame }) => {
  if (!invoice) throw new Error("A refund email needs its invoice");
  const p = message.payload as RefundEmailPayload;
  // The invoice's language (docs/decisions.md, Languages): amounts and dates in its format.
  const lang = invoice.language;
  return {
    element: (
      <RefundEmail
        {...frame}
        clientName={invoice.clientName}
        invoiceNumber={invoice.invoiceNumber}
        title={invoice.title}
        amount={localizeAmount(formatMoney(p.amount, p.asset), lang)}
        destination={p.destination}
        refundedAt={emailMoment(p.refundedAt, lang, formatUtcDateTime)}
        transactionHash={p.transactionHash}
        paymentHash={p.paymentHash}
      />
    ),
  };
};
