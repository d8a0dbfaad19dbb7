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
  const lang = frame.lang ?? "en";
  const words = { number: invoiceNumber, sender: frame.sender, title };
  return (
    <EmailLayout
      {...frame}
      preview={t(lang, "email.invoice.preview", { number: invoiceNumber, total })}
    >
      <Text style={styles.text}>{greeting(lang, clientName)}</Text>
      <Text style={styles.text}>
        {t(lang, resend ? "email.invoice.copy" : "email.invoice.new", words)}
      </Text>
      <EmailFact label={t(lang, "email.total")} value={total} big />
      <EmailFact label={t(lang, "email.dueDate")} value={dueDate ?? t(lang, "email.noDueDate")} />
      <EmailAction href={payUrl} label={t(lang, "email.payNow")} lang={lang} />
      <Text style={styles.muted}>{t(lang, "email.invoice.attached")}</Text>
    </EmailLayout>
  );
}
