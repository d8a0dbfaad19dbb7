import { Text } from "@react-email/components";
import { EmailFact, EmailLayout, type EmailLayoutProps, styles } from "./layout";

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
  return (
    <EmailLayout {...frame} preview={`Refund of ${amount} on invoice ${invoiceNumber}`}>
      <Text style={styles.text}>{clientName ? `Hello ${clientName},` : "Hello,"}</Text>
      <Text style={styles.text}>
        {frame.sender} sent you a refund of {amount} for invoice {invoiceNumber}.
      </Text>
      <EmailFact label="Refunded" value={amount} big />
      <EmailFact label="Invoice" value={`${invoiceNumber}: ${title}`} />
      <EmailFact label="Sent to" value={destination} />
      <EmailFact label="Refunded at" value={refundedAt} />
      <Text style={styles.muted}>Stellar transaction {transactionHash}</Text>
      <Text style={styles.muted}>For your payment in transaction {paymentHash}</Text>
    </EmailLayout>
  );
}
