import { RefundEmail } from "@/emails/refund";
import { formatMoney, formatUtcDateTime } from "@/lib/format";
import type { RefundEmailPayload } from "../refund-email";
import type { EmailTemplate } from "../render";

/** The refund email: from its payload (what the ledger showed when it was recorded). */
export const refundTemplate: EmailTemplate = async ({ message, invoice, frame }) => {
  if (!invoice) throw new Error("A refund email needs its invoice");
  const p = message.payload as RefundEmailPayload;
  return {
    element: (
      <RefundEmail
        {...frame}
        clientName={invoice.clientName}
        invoiceNumber={invoice.invoiceNumber}
        title={invoice.title}
        amount={formatMoney(p.amount, p.asset)}
        destination={p.destination}
        refundedAt={formatUtcDateTime(p.refundedAt)}
        transactionHash={p.transactionHash}
        paymentHash={p.paymentHash}
      />
    ),
  };
};
