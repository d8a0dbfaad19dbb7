import type { DbOrTx } from "@/db/client";
import { formatMoney } from "@/lib/format";
import { t } from "@/lib/i18n";
import { localizeAmount } from "@/lib/i18n/format";
import type { InvoiceRow, PaymentRow } from "../invoices/store";
import type { RefundRow } from "../refunds/store";
import { enqueueEmail, isSingleAddress } from "./outbox";

/** What a refund email says, fixed when the refund is recorded: what moved on the ledger. */
export type RefundEmailPayload = {
  amount: string;
  asset: string;
  destination: string;
  transactionHash: string;
  ledgerNumber: number;
  refundedAt: string;
  /** The payment it sends back. */
  paymentHash: string;
};

/**
 * When a refund is recorded (lib/services/refunds/record-refund.ts, in its transaction): an
 * email to the client (when the invoice emails its client and has an address) with the amount,
 * asset and hash of the refund. Once per refund: the key is `refund:<refundId>`.
 * docs/decisions.md, Reminders and receipts.
 */
export async function enqueueRefundEmail(
  db: DbOrTx,
  invoice: InvoiceRow,
  payment: PaymentRow,
  refund: RefundRow,
  onLedger: { hash: string; ledger: number; at: Date },
  now: Date,
): Promise<void> {
  if (!invoice.emailClient || !isSingleAddress(invoice.clientEmail)) return;
  const payload: RefundEmailPayload = {
    amount: refund.amount,
    asset: refund.asset,
    destination: refund.destination,
    transactionHash: onLedger.hash,
    ledgerNumber: onLedger.ledger,
    refundedAt: onLedger.at.toISOString(),
    // Only a ledger payment is refunded (create-refund.ts refuses the others).
    paymentHash: payment.transactionHash ?? "",
  };
  await enqueueEmail(
    db,
    {
      wallet: invoice.freelancerWallet,
      invoiceId: invoice.id,
      kind: "refund",
      dedupeKey: `refund:${refund.id}`,
      to: invoice.clientEmail,
      subject: t(invoice.language, "email.refund.subject", {
        amount: localizeAmount(formatMoney(refund.amount, refund.asset), invoice.language),
        number: invoice.invoiceNumber,
      }),
      payload,
    },
    now,
  );
}
