import { Text } from "@react-email/components";
import { EmailAction, EmailLayout, type EmailLayoutProps, styles } from "./layout";

/** Every text already in the client's language (lib/i18n, `portal.*`, `statement.*`). */
export type PortalLinkEmailProps = Omit<EmailLayoutProps, "children" | "preview"> & {
  preview: string;
  greeting: string;
  body: string;
  /** One sign-in link per freelancer (docs/decisions.md, Client portal). */
  links: { href: string; label: string }[];
  ignore: string;
};

/** The client portal's sign-in links: one button per freelancer who bills this address. */
export function PortalLinkEmail(props: PortalLinkEmailProps) {
  const { preview, greeting, body, links, ignore, ...frame } = props;
  return (
    <EmailLayout {...frame} preview={preview}>
      <Text style={styles.text}>{greeting}</Text>
      <Text style={styles.text}>{body}</Text>
      {links.map((l) => (
        <EmailAction key={l.href} href={l.href} label={l.label} lang={frame.lang} />
      ))}
      <Text style={styles.muted}>{ignore}</Text>
    </EmailLayout>
  );
}

export type StatementEmailProps = Omit<EmailLayoutProps, "children" | "preview"> & {
  preview: string;
  greeting: string;
  body: string;
  portal: string;
};

/** A statement of account sent by the freelancer (the PDF attached). */
export function StatementEmail(props: StatementEmailProps) {
  const { preview, greeting, body, portal, ...frame } = props;
  return (
    <EmailLayout {...frame} preview={preview}>
      <Text style={styles.text}>{greeting}</Text>
      <Text style={styles.text}>{body}</Text>
      <Text style={styles.muted}>{portal}</Text>
    </EmailLayout>
  );
}
