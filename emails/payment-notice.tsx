import { Text } from "@react-email/components";
import { styles } from "./layout";
import { NotificationLayout } from "./notification-layout";
import { type PaymentEmailFacts, PaymentFacts, withValue } from "./receipt";

export type PaymentNoticeEmailProps = PaymentEmailFacts & {
  serviceName: string;
  clientName: string;
  invoiceUrl: string;
};

/**
 * The payment notice to the freelancer (docs/decisions.md, Reminders and receipts): in the
 * notification layout, never the client's template (no profile footer, no reminders link).
 */
export function PaymentNoticeEmail(props: PaymentNoticeEmailProps) {
  const { clientName, invoiceUrl, serviceName, ...facts } = props;
  return (
    <NotificationLayout
      serviceName={serviceName}
      preview={`${facts.amount} received on invoice ${facts.invoiceNumber}`}
      pageUrl={invoiceUrl}
      pageLabel={`Open invoice ${facts.invoiceNumber}`}
    >
      <Text style={styles.text}>
        {facts.remaining
          ? `${clientName} paid ${withValue(facts)} towards invoice ${facts.invoiceNumber}. ${facts.remaining} remains to be paid.`
          : `${clientName} paid invoice ${facts.invoiceNumber} in full.`}
      </Text>
      <PaymentFacts {...facts} />
    </NotificationLayout>
  );
}
