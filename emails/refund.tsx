import { Text } from "@react-email/components";
import { t } from "@/lib/i18n";
import { EmailFact, EmailLayout, type EmailLayoutProps, greeting, styles } from "./layout";

export type RefundEmailProps = Omit<EmailLayoutProps, "children" | "preview"> & {
  clientName: string | null;
  invoiceNumber: string;
  title: string;
  /** What moved on the ledger, e.g. "25.00 USDC". */
  amount: string;
  /** The wallet the refund was sent to. */
  destination: string;
  /** Formatted date and time the ledger closed it (UTC). */
  refundedAt: string;
  transactionHash: string;
  /** The payment it sends back (its transaction's hash). */
  paymentHash: string;
};

/** A refund to the client (docs/decisions.md, Reminders and receipts): what moved on the ledger. */
export function RefundEmail(props: RefundEmailProps) {
  const { clientName, invoiceNumber, title, amount, destination, refundedAt, ...rest } = props;
  const { transactionHash, paymentHash, ...frame } = rest;
  const lang = frame.lang ?? "en";
  const words = { amount, number: invoiceNumber, sender: frame.sender };
  return (
    <EmailLayout {...frame} preview={t(lang, "email.refund.preview", words)}>
      <Text style={styles.text}>{greeting(lang, clientName)}</Text>
      <Text style={styles.text}>{t(lang, "email.refund.body", words)}</Text>
      <EmailFact label={t(lang, "email.refund.refunded")} value={amount} big />
      <EmailFact label={t(lang, "email.payment.invoice")} value={`${invoiceNumber}: ${title}`} />
      <EmailFact label={t(lang, "email.refund.sentTo")} value={destination} />
      <EmailFact label={t(lang, "email.refund.refundedAt")} value={refundedAt} />
      <Text style={styles.muted}>
        {t(lang, "email.payment.transaction", { hash: transactionHash })}
      </Text>
      <Text style={styles.muted}>{t(lang, "email.refund.forPayment", { hash: paymentHash })}</Text>
    </EmailLayout>
  );
}
