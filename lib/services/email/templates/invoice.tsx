import { InvoiceEmail } from "@/emails/invoice";
import { paymentPageUrl } from "@/lib/config";
import { formatPriced, formatUtcDate } from "@/lib/format";
import { emailDay, localizeAmount } from "@/lib/i18n/format";
import { invoicePdf } from "@/lib/services/invoices/invoice-pdf";
import type { EmailTemplate } from "../render";

/**
 * The invoice email: summary, total, due date, "Pay now" to {APP_URL}/pay/<id>, and the
 * invoice's PDF (the one GET /api/invoices/:id/pdf serves) attached.
 */
export const invoiceTemplate: EmailTemplate = async ({ message, ctx, invoice, frame }) => {
  if (!invoice) throw new Error("An invoice email needs its invoice");
  const payUrl = paymentPageUrl(ctx.config.appUrl, invoice.id);
  const pdf = await invoicePdf(ctx.db, ctx.config, invoice);
  const lang = invoice.language;
  return {
    element: (
      <InvoiceEmail
        {...frame}
        clientName={invoice.clientName}
        invoiceNumber={invoice.invoiceNumber}
        title={invoice.title}
        total={localizeAmount(formatPriced(invoice.total, invoice), lang)}
        dueDate={invoice.dueDate ? emailDay(invoice.dueDate, lang, formatUtcDate) : null}
        payUrl={payUrl}
        resend={message.payload.resend === true}
      />
    ),
    attachments: [
      { filename: `${invoice.invoiceNumber}.pdf`, content: pdf, contentType: "application/pdf" },
    ],
  };
};
