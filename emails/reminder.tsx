import { Text } from "@react-email/components";
import { EmailAction, EmailFact, EmailLayout, type EmailLayoutProps, styles } from "./layout";

export type ReminderEmailProps = Omit<EmailLayoutProps, "children" | "preview"> & {
  clientName: string | null;
  invoiceNumber: string;
  title: string;
  /** "is due in 3 days", "is due today", "is 7 days overdue" (lib/domain/reminders.ts). */
  when: string;
  /** Formatted amount still due. */
  amountDue: string;
  dueDate: string;
  payUrl: string;
};

/** A payment reminder (docs/decisions.md, Reminders and receipts). */
export function ReminderEmail(props: ReminderEmailProps) {
  const { clientName, invoiceNumber, title, when, amountDue, dueDate, payUrl, ...frame } = props;
  return (
    <EmailLayout {...frame} preview={`Invoice ${invoiceNumber} ${when}`}>
      <Text style={styles.text}>{clientName ? `Hello ${clientName},` : "Hello,"}</Text>
      <Text style={styles.text}>
        A reminder from {frame.sender}: invoice {invoiceNumber} ({title}) {when}.
      </Text>
      <EmailFact label="Amount due" value={amountDue} big />
      <EmailFact label="Due date" value={dueDate} />
      <EmailAction href={payUrl} label="Pay now" />
      <Text style={styles.muted}>Already paid? Thank you, and please ignore this reminder.</Text>
    </EmailLayout>
  );
}
