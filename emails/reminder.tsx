import { Text } from "@react-email/components";
import { t } from "@/lib/i18n";
import {
  EmailAction,
  EmailFact,
  EmailLayout,
  type EmailLayoutProps,
  greeting,
  styles,
} from "./layout";

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
  const lang = frame.lang ?? "en";
  return (
    <EmailLayout
      {...frame}
      preview={t(lang, "email.reminder.preview", { number: invoiceNumber, when })}
    >
      <Text style={styles.text}>{greeting(lang, clientName)}</Text>
      <Text style={styles.text}>
        {t(lang, "email.reminder.body", {
          sender: frame.sender,
          number: invoiceNumber,
          title,
          when,
        })}
      </Text>
      <EmailFact label={t(lang, "email.reminder.amountDue")} value={amountDue} big />
      <EmailFact label={t(lang, "email.dueDate")} value={dueDate} />
      <EmailAction href={payUrl} label={t(lang, "email.payNow")} lang={lang} />
      <Text style={styles.muted}>{t(lang, "email.reminder.ignore")}</Text>
    </EmailLayout>
  );
}
