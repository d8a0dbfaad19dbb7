import { Body, Container, Head, Hr, Html, Link, Preview, Text } from "@react-email/components";
import type { ReactNode } from "react";
import { styles } from "./layout";

/**
 * The look of a notification TO the freelancer (docs/decisions.md, Email): the service
 * speaking to its user, not the freelancer's letterhead to a client. No client-facing
 * footer from the profile ("Thank you for your business"), no logo, and no "Stop reminders"
 * link or List-Unsubscribe header (that link stops the client's reminders of the invoice).
 */
export type NotificationLayoutProps = {
  preview: string;
  serviceName: string;
  /** The freelancer's page this notice is about (their invoice). */
  pageUrl: string;
  pageLabel: string;
  children: ReactNode;
};

const ink = "#0f172a";
const rule = "#cbd5e1";

export function NotificationLayout(props: NotificationLayoutProps) {
  return (
    <Html lang="en">
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
          <Text style={{ ...styles.text, color: ink, fontSize: "16px", fontWeight: 700 }}>
            {props.serviceName}
          </Text>
          <Hr style={{ borderColor: rule, margin: "8px 0 20px" }} />
          {props.children}
          <Text style={styles.text}>
            <Link href={props.pageUrl} style={styles.link}>
              {props.pageLabel}
            </Link>
          </Text>
          <Hr style={{ borderColor: rule, margin: "24px 0 12px" }} />
          <Text style={styles.muted}>
            A notification from {props.serviceName} about your own invoices. Your client does not
            receive this email.
          </Text>
        </Container>
      </Body>
    </Html>
  );
}
