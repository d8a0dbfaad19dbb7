import type { DbOrTx } from "@/db/client";
import type { Config } from "@/lib/config";
import { invoiceAmountDue } from "@/lib/domain/fiat";
import { sumAmounts, toStroops } from "@/lib/domain/money";
import { t } from "@/lib/i18n";
import type { InvoiceRow, PaymentRow } from "../invoices/store";
import { getProfile } from "../profile/profile";
import { enqueueEmail, isSingleAddress } from "./outbox";
import { skipQueuedReminders, unsubscribeUrl } from "./unsubscribe";

/** What a receipt and a payment notice say, fixed when the payment is recorded. */
export type PaymentEmailPayload = {
  /** What this payment added to amountPaid, in the invoice's units (7 decimals). */
  amount: string;
  /**
   * What moved on the ledger: the asset amount of the transaction's applied operations (a
   * fiat-priced invoice's `amount` is its value in the price currency). Absent in payloads
   * queued before it was added.
   */
  sent?: { amount: string; asset: string };
  amountPaid: string;
  /** What is left to pay after it ("0.0000000" when paid in full). */
  remaining: string;
  paidInFull: boolean;
  /** Null for a payment received outside Stellar (then `method` says how it came). */
  transactionHash: string | null;
  payerWallet: string | null;
  /** `stellar`, or how a payment recorded by hand was received, and its reference. */
  method?: string;
  reference?: string | null;
  paidAt: string;
  unsubscribeUrl: string;
};

/**
 * On each applied payment (lib/services/payments/record-payment.ts, in the transaction that
 * records it): a receipt to the client (when the invoice emails its client and has an
 * address) and a payment notice to the freelancer (profile email, else the invoice's
 * freelancerEmail; none: no notice). One of each per payment: the keys are
 * `receipt:<paymentId>` and `notice:<paymentId>`, the payment being the transaction's first
 * applied row. A payment that pays the invoice in full also skips its queued reminders.
 * docs/decisions.md, Reminders and receipts.
 */
export async function enqueuePaymentEmails(
  db: DbOrTx,
  config: Pick<Config, "appUrl" | "jwtSecret">,
  invoice: InvoiceRow,
  rows: readonly PaymentRow[],
  applied: string,
  now: Date,
): Promise<void> {
  const payment = rows.find((r) => r.applied);
  if (!payment || toStroops(applied) === 0n) return;
  const paidInFull = invoice.status === "PAID";
  const payload: PaymentEmailPayload = {
    amount: applied,
    sent: {
      amount: sumAmounts(rows.filter((r) => r.applied).map((r) => r.amount)),
      asset: payment.asset,
    },
    amountPaid: invoice.amountPaid,
    remaining: paidInFull ? "0.0000000" : invoiceAmountDue(invoice),
    paidInFull,
    transactionHash: payment.transactionHash,
    payerWallet: payment.fromWallet,
    method: payment.method,
    reference: payment.reference,
    paidAt: payment.confirmedAt.toISOString(),
    unsubscribeUrl: unsubscribeUrl(config, invoice.id),
  };
  const base = { wallet: invoice.freelancerWallet, invoiceId: invoice.id, payload };
  const what = paidInFull ? "paid in full" : "payment received";
  // An address enqueue would refuse is skipped: an email never fails a payment's recording.
  if (invoice.emailClient && isSingleAddress(invoice.clientEmail)) {
    await enqueueEmail(
      db,
      {
        ...base,
        kind: "receipt",
        dedupeKey: `receipt:${payment.id}`,
        to: invoice.clientEmail,
        // The client's receipt in the invoice's language (docs/decisions.md, Languages).
        subject: t(invoice.language, "email.receipt.subject", {
          number: invoice.invoiceNumber,
          what:
            invoice.language === "en"
              ? what
              : paidInFull
                ? t(invoice.language, "email.receipt.paidInFull")
                : t(invoice.language, "email.payment.thisPayment"),
        }),
      },
      now,
    );
  }
  const profile = await getProfile(db, invoice.freelancerWallet);
  const freelancer = profile?.email ?? invoice.freelancerEmail;
  if (freelancer && isSingleAddress(freelancer)) {
    await enqueueEmail(
      db,
      {
        ...base,
        kind: "payment_notice",
        dedupeKey: `notice:${payment.id}`,
        to: freelancer,
        subject: `Invoice ${invoice.invoiceNumber}: ${what}`,
      },
      now,
    );
  }
  if (paidInFull) await skipQueuedReminders(db, invoice.id);
}
