import { Text } from "@react-email/components";
import { EmailLayout, type EmailLayoutProps, styles } from "./layout";
import { type PaymentEmailFacts, PaymentFacts, withoutFacts, withValue } from "./receipt";

export type PaymentNoticeEmailProps = Omit<EmailLayoutProps, "children" | "preview"> &
  PaymentEmailFacts & { clientName: string; invoiceUrl: string };

/** The payment notice to the freelancer (docs/decisions.md, Reminders and receipts). */
export function PaymentNoticeEmail(props: PaymentNoticeEmailProps) {
  const { clientName, invoiceUrl, ...facts } = props;
  return (
    <EmailLayout
      {...withoutFacts(facts)}
      preview={`${facts.amount} received on invoice ${facts.invoiceNumber}`}
    >
      <Text style={styles.text}>
        {facts.remaining
          ? `${clientName} paid ${withValue(facts)} towards invoice ${facts.invoiceNumber}. ${facts.remaining} remains to be paid.`
          : `${clientName} paid invoice ${facts.invoiceNumber} in full.`}
      </Text>
      <PaymentFacts {...facts} />
      <Text style={styles.muted}>Invoice page: {invoiceUrl}</Text>
    </EmailLayout>
  );
}
