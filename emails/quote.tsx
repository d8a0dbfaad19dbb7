import { Text } from "@react-email/components";
import { EmailAction, EmailFact, EmailLayout, type EmailLayoutProps, styles } from "./layout";

/** Every text already in the quote's language (lib/i18n, `quote.*`). */
export type QuoteEmailProps = Omit<EmailLayoutProps, "children" | "preview"> & {
  preview: string;
  greeting: string;
  body: string;
  facts: { label: string; value: string; big?: boolean }[];
  href: string;
  button: string;
};

/** A quote to the client (docs/decisions.md, Quotes): the link to its page, where it is answered. */
export function QuoteEmail(props: QuoteEmailProps) {
  const { preview, greeting, body, facts, href, button, ...frame } = props;
  return (
    <EmailLayout {...frame} preview={preview}>
      <Text style={styles.text}>{greeting}</Text>
      <Text style={styles.text}>{body}</Text>
      {facts.map((f) => (
        <EmailFact key={f.label} label={f.label} value={f.value} big={f.big} />
      ))}
      <EmailAction href={href} label={button} lang={frame.lang} />
    </EmailLayout>
  );
}
