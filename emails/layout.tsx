import {
  Body,
  Button,
  Container,
  Head,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Section,
  Text,
} from "@react-email/components";
import type { ReactNode } from "react";
import { type Language, t } from "@/lib/i18n";

/**
 * The service's look in email (slate, as the web app): text and one button, no images, so a
 * client that blocks images reads it all. Every template renders inside it (lib/services/email/
 * render.ts); the footer carries the freelancer's footer text and the unsubscribe link.
 */
export type EmailLayoutProps = {
  /** The inbox preview line. */
  preview: string;
  /** Who the email is from, shown as the heading (freelancer's name or company). */
  sender: string;
  /** The freelancer's company, under the heading when the heading is their name. */
  company?: string | null;
  /** The freelancer's tax id as invoices print it ("VAT: DE136695976"), under the heading. */
  taxId?: string | null;
  serviceName: string;
  children: ReactNode;
  /** The freelancer's logo (profile), with the sender as its alt text. */
  logoUrl?: string | null;
  /** The freelancer's email footer (profile), shown as typed (escaped by React). */
  footer?: string | null;
  /** Stops reminders for this invoice (docs/decisions.md, Email); also in List-Unsubscribe. */
  unsubscribeUrl?: string | null;
  /** The invoice's language (docs/decisions.md, Languages); English when left out. */
  lang?: Language;
};

const ink = "#0f172a";
const muted = "#475569";
const rule = "#cbd5e1";

export const styles = {
  text: { color: ink, fontSize: "15px", lineHeight: "22px", margin: "0 0 12px" },
  muted: { color: muted, fontSize: "13px", lineHeight: "20px", margin: "0 0 8px" },
  amount: { color: ink, fontSize: "24px", fontWeight: 700, margin: "4px 0 12px" },
  label: { color: muted, fontSize: "12px", textTransform: "uppercase" as const, margin: "0" },
  link: { color: "#1e293b", textDecoration: "underline" },
} as const;

export function EmailLayout(props: EmailLayoutProps) {
  const lang = props.lang ?? "en";
  return (
    <Html lang={lang}>
      <Head />
      <Preview>{props.preview}</Preview>
      <Body
        style={{
          backgroundColor: "#f8fafc",
          fontFamily: "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
          margin: 0,
          padding: "24px 0",
        }}
      >
        <Container
          style={{
            backgroundColor: "#ffffff",
            border: `1px solid ${rule}`,
            borderRadius: "8px",
            maxWidth: "560px",
            padding: "24px 28px",
          }}
        >
          {props.logoUrl ? (
            <Img
              src={props.logoUrl}
              alt={props.sender}
              height="40"
              style={{ marginBottom: "8px" }}
            />
          ) : null}
          <Text style={{ ...styles.text, fontSize: "18px", fontWeight: 700 }}>{props.sender}</Text>
          {props.company && props.company !== props.sender ? (
            <Text style={styles.muted}>{props.company}</Text>
          ) : null}
          {props.taxId ? <Text style={styles.muted}>{props.taxId}</Text> : null}
          <Hr style={{ borderColor: rule, margin: "8px 0 20px" }} />
          {props.children}
          <Hr style={{ borderColor: rule, margin: "24px 0 12px" }} />
          {props.footer ? <Text style={styles.muted}>{props.footer}</Text> : null}
          <Text style={styles.muted}>
            {t(lang, "email.sentWith", { service: props.serviceName })}
          </Text>
          {props.unsubscribeUrl ? (
            <Text style={styles.muted}>
              <Link href={props.unsubscribeUrl} style={styles.link}>
                {t(lang, "email.stopReminders")}
              </Link>
            </Text>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}

/** The main action (e.g. "Pay now"): a button, with its address as text too for text-only clients. */
export function EmailAction({
  href,
  label,
  lang = "en",
}: {
  href: string;
  label: string;
  lang?: Language;
}) {
  return (
    <Section style={{ margin: "8px 0 16px" }}>
      <Button
        href={href}
        style={{
          backgroundColor: "#1e293b",
          borderRadius: "6px",
          color: "#ffffff",
          fontSize: "15px",
          fontWeight: 600,
          padding: "12px 20px",
        }}
      >
        {label}
      </Button>
      <Text style={{ ...styles.muted, marginTop: "12px" }}>
        {t(lang, "email.orOpen")}{" "}
        <Link href={href} style={styles.link}>
          {href}
        </Link>
      </Text>
    </Section>
  );
}

/** A label over a value (total, due date...). */
export function EmailFact({ label, value, big }: { label: string; value: string; big?: boolean }) {
  return (
    <Section style={{ margin: "0 0 8px" }}>
      <Text style={styles.label}>{label}</Text>
      <Text style={big ? styles.amount : { ...styles.text, fontWeight: 600 }}>{value}</Text>
    </Section>
  );
}

/** "Hello Ada," or "Hello," in the email's language. */
export const greeting = (lang: Language, name: string | null) =>
  name ? t(lang, "email.hello", { name }) : t(lang, "email.helloAnonymous");
