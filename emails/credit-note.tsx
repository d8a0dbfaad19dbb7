import { Text } from "@react-email/components";
import { EmailFact, EmailLayout, type EmailLayoutProps, styles } from "./layout";

/** Every text already in the invoice's language (lib/i18n, `creditNote.*`). */
export type CreditNoteEmailProps = Omit<EmailLayoutProps, "children" | "preview"> & {
  preview: string;
  greeting: string;
  body: string;
  facts: { label: string; value: string; big?: boolean }[];
  reason: string;
};

/** A credit note to the client (docs/decisions.md, Credit notes): its PDF is attached. */
export function CreditNoteEmail(props: CreditNoteEmailProps) {
  const { preview, greeting, body, facts, reason, ...frame } = props;
  return (
    <EmailLayout {...frame} preview={preview}>
      <Text style={styles.text}>{greeting}</Text>
      <Text style={styles.text}>{body}</Text>
      {facts.map((f) => (
        <EmailFact key={f.label} label={f.label} value={f.value} big={f.big} />
      ))}
      <Text style={styles.muted}>{reason}</Text>
    </EmailLayout>
  );
}
