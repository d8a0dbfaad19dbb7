import { Text } from "@react-email/components";
import { EmailAction, EmailFact, EmailLayout, type EmailLayoutProps, styles } from "./layout";

/** What the receipt and the payment notice show (formatted amounts). */
export type PaymentEmailFacts = {
  invoiceNumber: string;
  title: string;
  /** This payment as it moved on the ledger, e.g. "432.1234567 USDC". */
  amount: string;
  /** A fiat-priced invoice: what this payment counted for, e.g. "400.00 EUR"; else null. */
  value: string | null;
  /** Paid so far, this payment included. */
  amountPaid: string;
  total: string;
  /** Left to pay; null when paid in full. */
  remaining: string | null;
  /** Formatted date and time of the payment (UTC). */
  paidAt: string;
  /** Null for a payment received outside Stellar: `receivedBy` says how. */
  transactionHash: string | null;
  /** "Bank transfer · ref 2026-114" for a payment the freelancer recorded; else null. */
  receivedBy?: string | null;
};

export type ReceiptEmailProps = Omit<EmailLayoutProps, "children" | "preview"> &
  PaymentEmailFacts & { clientName: string | null; payUrl: string };

/** The receipt to the client (docs/decisions.md, Reminders and receipts): what was paid, what remains. */
export function ReceiptEmail(props: ReceiptEmailProps) {
  const { clientName, payUrl, ...rest } = props;
  const { invoiceNumber, remaining, amount, sender } = rest;
  return (
    <EmailLayout
      {...withoutFacts(rest)}
      preview={`Receipt: ${amount} paid on invoice ${invoiceNumber}`}
    >
      <Text style={styles.text}>{clientName ? `Hello ${clientName},` : "Hello,"}</Text>
      <Text style={styles.text}>
        {remaining
          ? `Thank you: your payment of ${withValue(rest)} towards invoice ${invoiceNumber} from ${sender} was received. ${remaining} remains to be paid.`
          : `Thank you: invoice ${invoiceNumber} from ${sender} is paid in full.`}
      </Text>
      <PaymentFacts {...rest} />
      {remaining ? <EmailAction href={payUrl} label="Pay the rest" /> : null}
    </EmailLayout>
  );
}

/** The facts of a payment, shared by the receipt and the payment notice. */
export function PaymentFacts(f: PaymentEmailFacts) {
  return (
    <>
      <EmailFact label="This payment" value={f.amount} big />
      {f.value ? <EmailFact label="Value" value={f.value} /> : null}
      <EmailFact label="Invoice" value={`${f.invoiceNumber}: ${f.title}`} />
      <EmailFact label="Paid so far" value={`${f.amountPaid} of ${f.total}`} />
      <EmailFact label="Remaining" value={f.remaining ?? "Nothing: paid in full"} />
      <EmailFact label="Paid at" value={f.paidAt} />
      {f.transactionHash ? (
        <Text style={styles.muted}>Stellar transaction {f.transactionHash}</Text>
      ) : (
        <EmailFact label="Received by" value={f.receivedBy ?? "Outside Stellar"} />
      )}
    </>
  );
}

/** "1,228.6084702 XLM (142.15 EUR)" for a fiat-priced invoice, else the amount sent. */
export const withValue = (f: Pick<PaymentEmailFacts, "amount" | "value">) =>
  f.value ? `${f.amount} (${f.value})` : f.amount;

/** The layout's own props out of a template's props (the facts are the body's). */
export function withoutFacts<T extends Omit<EmailLayoutProps, "children" | "preview">>(
  props: T & Partial<PaymentEmailFacts>,
): Omit<EmailLayoutProps, "children" | "preview"> {
  const { sender, serviceName, logoUrl, footer, unsubscribeUrl } = props;
  return { sender, serviceName, logoUrl, footer, unsubscribeUrl };
}
