import { Text } from "@react-email/components";
import { type Language, t } from "@/lib/i18n";
import {
  EmailAction,
  EmailFact,
  EmailLayout,
  type EmailLayoutProps,
  greeting,
  styles,
} from "./layout";

/** What the receipt and the payment notice show (formatted amounts). */
export type PaymentEmailFacts = {
  invoiceNumber: string;
  title: string;
  /** This payment as it moved on the ledger, e.g. "432.1234567 USDC". */
  amount: string;
  /** A fiat-priced invoice: what this payment counted for, e.g. "400.00 EUR"; else null. */
  value: string | null;
  /** Paid so far, this payment included. */
  amountPaid: string;
  total: string;
  /** Left to pay; null when paid in full. */
  remaining: string | null;
  /** Formatted date and time of the payment (UTC). */
  paidAt: string;
  /** Null for a payment received outside Stellar: `receivedBy` says how. */
  transactionHash: string | null;
  /** "Bank transfer · ref 2026-114" for a payment the freelancer recorded; else null. */
  receivedBy?: string | null;
};

export type ReceiptEmailProps = Omit<EmailLayoutProps, "children" | "preview"> &
  PaymentEmailFacts & { clientName: string | null; payUrl: string };

/** The receipt to the client (docs/decisions.md, Reminders and receipts): what was paid, what remains. */
export function ReceiptEmail(props: ReceiptEmailProps) {
  const { clientName, payUrl, ...rest } = props;
  const { invoiceNumber, remaining, amount, sender } = rest;
  const lang = rest.lang ?? "en";
  return (
    <EmailLayout
      {...withoutFacts(rest)}
      preview={t(lang, "email.receipt.preview", { amount, number: invoiceNumber })}
    >
      <Text style={styles.text}>{greeting(lang, clientName)}</Text>
      <Text style={styles.text}>
        {remaining
          ? t(lang, "email.receipt.partly", {
              amount: withValue(rest),
              number: invoiceNumber,
              sender,
              remaining,
            })
          : t(lang, "email.receipt.full", { number: invoiceNumber, sender })}
      </Text>
      <PaymentFacts {...rest} lang={lang} />
      {remaining ? (
        <EmailAction href={payUrl} label={t(lang, "email.receipt.payRest")} lang={lang} />
      ) : null}
    </EmailLayout>
  );
}

/** The facts of a payment, shared by the receipt and the payment notice. */
export function PaymentFacts(f: PaymentEmailFacts & { lang?: Language }) {
  const lang = f.lang ?? "en";
  const tr = (key: Parameters<typeof t>[1], values?: Parameters<typeof t>[2]) =>
    t(lang, key, values);
  return (
    <>
      <EmailFact label={tr("email.payment.thisPayment")} value={f.amount} big />
      {f.value ? <EmailFact label={tr("email.payment.value")} value={f.value} /> : null}
      <EmailFact label={tr("email.payment.invoice")} value={`${f.invoiceNumber}: ${f.title}`} />
      <EmailFact
        label={tr("email.payment.paidSoFar")}
        value={tr("email.payment.of", { paid: f.amountPaid, total: f.total })}
      />
      <EmailFact
        label={tr("email.payment.remaining")}
        value={f.remaining ?? tr("email.payment.nothingLeft")}
      />
      <EmailFact label={tr("email.payment.paidAt")} value={f.paidAt} />
      {f.transactionHash ? (
        <Text style={styles.muted}>
          {tr("email.payment.transaction", { hash: f.transactionHash })}
        </Text>
      ) : (
        <EmailFact
          label={tr("email.payment.receivedBy")}
          value={f.receivedBy ?? tr("email.payment.outsideStellar")}
        />
      )}
    </>
  );
}

/** "1,228.6084702 XLM (142.15 EUR)" for a fiat-priced invoice, else the amount sent. */
export const withValue = (f: Pick<PaymentEmailFacts, "amount" | "value">) =>
  f.value ? `${f.amount} (${f.value})` : f.amount;

/** The layout's own props out of a template's props (the facts are the body's). */
export function withoutFacts<T extends Omit<EmailLayoutProps, "children" | "preview">>(
  props: T & Partial<PaymentEmailFacts>,
): Omit<EmailLayoutProps, "children" | "preview"> {
  const { sender, serviceName, logoUrl, footer, unsubscribeUrl, lang } = props;
  return { sender, serviceName, logoUrl, footer, unsubscribeUrl, lang };
}
