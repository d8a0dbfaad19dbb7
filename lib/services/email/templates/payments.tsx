import { PaymentNoticeEmail } from "@/emails/payment-notice";
import { type PaymentEmailFacts, ReceiptEmail } from "@/emails/receipt";
import { ReminderEmail } from "@/emails/reminder";
import { paymentPageUrl } from "@/lib/config";
import { invoiceAmountDue } from "@/lib/domain/fiat";
import { isRemindable } from "@/lib/domain/reminders";
import { formatMoney, formatPriced, formatUtcDate, formatUtcDateTime } from "@/lib/format";
import { type Language, methodLabel, reminderWhenIn } from "@/lib/i18n";
import { emailDay, emailMoment, localizeAmount } from "@/lib/i18n/format";
import type { PaymentEmailPayload } from "../receipts";
import { EmailGoneError, type EmailTemplate, type TemplateInput } from "../render";

// The receipt, the payment notice and the reminder (docs/decisions.md, Reminders and
// receipts). Amounts of a payment come from its payload (what was true when it was
// recorded); a reminder reads the invoice as it is at delivery.

function paymentFacts(
  { message, invoice }: TemplateInput,
  /** The client's receipt: the invoice's; the freelancer's notice: English. */
  lang: Language = "en",
): PaymentEmailFacts {
  if (!invoice) throw new Error("A payment email needs its invoice");
  const p = message.payload as PaymentEmailPayload;
  const money = (amount: string) => localizeAmount(formatPriced(amount, invoice), lang);
  // What moved on the ledger, in its asset; a fiat-priced invoice adds what it counted for.
  const sent = p.sent ? localizeAmount(formatMoney(p.sent.amount, p.sent.asset), lang) : null;
  return {
    invoiceNumber: invoice.invoiceNumber,
    title: invoice.title,
    amount: sent ?? money(p.amount),
    value: invoice.priceCurrency ? money(p.amount) : null,
    amountPaid: money(p.amountPaid),
    total: money(invoice.total),
    remaining: p.paidInFull ? null : money(p.remaining),
    paidAt: emailMoment(p.paidAt, lang, formatUtcDateTime),
    transactionHash: p.transactionHash,
    // A payment received outside Stellar: how it came, its date (no ledger time).
    receivedBy:
      p.method && p.method !== "stellar" ? methodLabel(lang, p.method, p.reference) : null,
  };
}

export const receiptTemplate: EmailTemplate = async (input) => ({
  element: (
    <ReceiptEmail
      {...input.frame}
      {...paymentFacts(input, input.frame.lang)}
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
  const lang = invoice.language;
  return {
    element: (
      <ReminderEmail
        {...frame}
        clientName={invoice.clientName}
        invoiceNumber={invoice.invoiceNumber}
        title={invoice.title}
        when={reminderWhenIn(lang, offset)}
        amountDue={localizeAmount(formatPriced(invoiceAmountDue(invoice), invoice), lang)}
        dueDate={emailDay(invoice.dueDate, lang, formatUtcDate)}
        payUrl={paymentPageUrl(ctx.config.appUrl, invoice.id)}
      />
    ),
  };
};
