import { Text } from "@react-email/components";
import { EmailAction, EmailFact, EmailLayout, type EmailLayoutProps, styles } from "./layout";

export type InvoiceEmailProps = Omit<EmailLayoutProps, "children" | "preview"> & {
  clientName: string | null;
  invoiceNumber: string;
  title: string;
  /** Formatted total, e.g. "1,250.00 USDC" or "€1,250.00". */
  total: string;
  /** Formatted due date, or null when the invoice has none. */
  dueDate: string | null;
  payUrl: string;
  /** A resend asked by the freelancer rather than the first email on send. */
  resend?: boolean;
};

/** The invoice email (docs/decisions.md, Email): summary, total, due date, Pay now; PDF attached. */
export function InvoiceEmail(props: InvoiceEmailProps) {
  const { clientName, invoiceNumber, title, total, dueDate, payUrl, resend, ...frame } = props;
  return (
    <EmailLayout {...frame} preview={`Invoice ${invoiceNumber}: ${total}`}>
      <Text style={styles.text}>{clientName ? `Hello ${clientName},` : "Hello,"}</Text>
      <Text style={styles.text}>
        {resend ? "A copy of invoice" : "You have a new invoice"} {invoiceNumber} from{" "}
        {frame.sender}: {title}.
      </Text>
      <EmailFact label="Total" value={total} big />
      <EmailFact label="Due date" value={dueDate ?? "No due date"} />
      <EmailAction href={payUrl} label="Pay now" />
      <Text style={styles.muted}>The invoice is attached as a PDF.</Text>
    </EmailLayout>
  );
}
