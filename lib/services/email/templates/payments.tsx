import { PaymentNoticeEmail } from "@/emails/payment-notice";
import { type PaymentEmailFacts, ReceiptEmail } from "@/emails/receipt";
import { ReminderEmail } from "@/emails/reminder";
import { paymentPageUrl } from "@/lib/config";
import { invoiceAmountDue } from "@/lib/domain/fiat";
import { isRemindable, reminderWhen } from "@/lib/domain/reminders";
import {
  formatMoney,
  formatPriced,
  formatUtcDate,
  formatUtcDateTime,
  paymentMethodLabel,
} from "@/lib/format";
import type { PaymentEmailPayload } from "../receipts";
import { EmailGoneError, type EmailTemplate, type TemplateInput } from "../render";

// The receipt, the payment notice and the reminder (docs/decisions.md, Reminders and
// receipts). Amounts of a payment come from its payload (what was true when it was
// recorded); a reminder reads the invoice as it is at delivery.

function paymentFacts({ message, invoice }: TemplateInput): PaymentEmailFacts {
  if (!invoice) throw new Error("A payment email needs its invoice");
  const p = message.payload as PaymentEmailPayload;
  // What moved on the ledger, in its asset; a fiat-priced invoice adds what it counted for.
  const sent = p.sent ? formatMoney(p.sent.amount, p.sent.asset) : null;
  return {
    invoiceNumber: invoice.invoiceNumber,
    title: invoice.title,
    amount: sent ?? formatPriced(p.amount, invoice),
    value: invoice.priceCurrency ? formatPriced(p.amount, invoice) : null,
    amountPaid: formatPriced(p.amountPaid, invoice),
    total: formatPriced(invoice.total, invoice),
    remaining: p.paidInFull ? null : formatPriced(p.remaining, invoice),
    paidAt: formatUtcDateTime(p.paidAt),
    transactionHash: p.transactionHash,
    // A payment received outside Stellar: how it came, its date (no ledger time).
    receivedBy:
      p.method && p.method !== "stellar" ? paymentMethodLabel(p.method, p.reference) : null,
  };
}

export const receiptTemplate: EmailTemplate = async (input) => ({
  element: (
    <ReceiptEmail
      {...input.frame}
      {...paymentFacts(input)}
      clientName={input.invoice?.clientName ?? null}
      payUrl={paymentPageUrl(input.ctx.config.appUrl, input.message.invoiceId ?? "")}
    />
  ),
});

export const paymentNoticeTemplate: EmailTemplate = async (input) => ({
  element: (
    <PaymentNoticeEmail
      serviceName={input.frame.serviceName}
      {...paymentFacts(input)}
      clientName={input.invoice?.clientName || "Your client"}
      invoiceUrl={`${input.ctx.config.appUrl}/invoices/${input.message.invoiceId}`}
    />
  ),
});

/**
 * A reminder still checks its invoice when it goes out: one paid, cancelled, deleted or
 * unsubscribed since it was queued is not reminded (the message fails as gone).
 */
export const reminderTemplate: EmailTemplate = async ({ message, ctx, invoice, frame }) => {
  if (!invoice || !isRemindable(invoice) || !invoice.dueDate) {
    throw new EmailGoneError("The invoice no longer takes reminders");
  }
  const offset = Number(message.payload.offset);
  return {
    element: (
      <ReminderEmail
        {...frame}
        clientName={invoice.clientName}
        invoiceNumber={invoice.invoiceNumber}
        title={invoice.title}
        when={reminderWhen(offset)}
        amountDue={formatPriced(invoiceAmountDue(invoice), invoice)}
        dueDate={formatUtcDate(invoice.dueDate)}
        payUrl={paymentPageUrl(ctx.config.appUrl, invoice.id)}
      />
    ),
  };
};
