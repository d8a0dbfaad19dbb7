import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { payments } from "@/db/schema";
import type { Config } from "@/lib/config";
import { BusinessRuleError } from "@/lib/domain/errors";
import { transition } from "@/lib/domain/invoice-state";
import {
  type MatchResult,
  matchPayment,
  type PaymentTransaction,
} from "@/lib/domain/payment-match";
import { newId } from "@/lib/ids";
import { assetFor } from "@/lib/stellar/assets";
import type { ServiceContext } from "../context";
import { pgErrorCode, withTransaction } from "../db";
import { applyTransition } from "../invoices/lifecycle";
import { networkName } from "../invoices/network";
import { type InvoiceRow, lockLiveInvoice, type PaymentRow } from "../invoices/store";

/**
 * The verifier run against an invoice row: its payment terms (links may activate a new
 * account), the issuer of its currency on its network, and whether the hash already paid
 * an invoice. Shared by the recorder and submit's check before it sends anything.
 */
export async function verifyAgainstInvoice(
  db: DbOrTx,
  config: Config,
  invoice: InvoiceRow,
  transaction: PaymentTransaction,
): Promise<MatchResult> {
  const [used] = await db
    .select({ invoiceId: payments.invoiceId })
    .from(payments)
    .where(eq(payments.transactionHash, transaction.hash))
    .limit(1);
  return matchPayment({
    invoiceId: invoice.id,
    invoice: {
      invoiceNumber: invoice.invoiceNumber,
      freelancerWallet: invoice.freelancerWallet,
      currency: invoice.currency,
      total: invoice.total,
      createdAt: invoice.createdAt,
      networkPassphrase: invoice.networkPassphrase,
      allowCreateAccount: invoice.kind === "LINK" && invoice.activateNewAccounts,
    },
    expectedIssuer: assetFor(config, networkName(invoice.networkPassphrase), invoice.currency)
      .issuer,
    transaction,
    hashAlreadyUsedFor: used?.invoiceId ?? null,
  });
}

export type RecordOutcome =
  | { kind: "recorded"; invoice: InvoiceRow; payment: PaymentRow }
  | { kind: "already_paid"; invoice: InvoiceRow };

/**
 * The one way an invoice becomes PAID, whichever path saw the payment (submit, confirm,
 * watcher). In one transaction: lock the invoice, run the verifier, insert the Payment
 * (unique hash), and apply the `pay` move (audit PAID, invoice.paid and payment.confirmed,
 * link.paid for a link). Racers queue on the row lock; the losers see PAID and answer
 * `already_paid`. Verifier rejections throw BusinessRuleError with the verifier's message.
 */
export async function verifyAndRecordPayment(
  ctx: Pick<ServiceContext, "db" | "config" | "now">,
  invoiceId: string,
  tx: PaymentTransaction,
): Promise<RecordOutcome> {
  try {
    return await withTransaction(ctx.db, async (db) => {
      const invoice = await lockLiveInvoice(db, invoiceId);
      if (invoice.status === "PAID") return { kind: "already_paid", invoice };
      transition(invoice.status, "pay");

      const result = await verifyAgainstInvoice(db, ctx.config, invoice, tx);
      if (!result.ok) throw new BusinessRuleError(result.message);
      const p = result.payment;
      const [payment] = await db
        .insert(payments)
        .values({
          id: newId(),
          invoiceId,
          transactionHash: p.hash,
          ledgerNumber: p.ledger,
          fromWallet: p.from,
          toWallet: p.to,
          amount: p.amount,
          asset: invoice.currency,
          status: "CONFIRMED",
          confirmedAt: p.createdAt,
        })
        .returning();
      const updated = await applyTransition(db, invoice, "pay", {
        actor: p.from,
        at: ctx.now(),
        set: {
          transactionHash: p.hash,
          ledgerNumber: p.ledger,
          payerWallet: p.from,
          clientWallet: p.from,
          // The ledger's time of the payment, not the time it was noticed.
          paidAt: p.createdAt,
        },
        changes: { transactionHash: p.hash, ledgerNumber: p.ledger, amount: p.amount },
        payment,
      });
      return { kind: "recorded", invoice: updated, payment };
    });
  } catch (err) {
    // The unique hash: this transaction already paid another invoice in a concurrent commit.
    if (pgErrorCode(err).code === "23505") {
      throw new BusinessRuleError("Transaction does not match invoice");
    }
    throw err;
  }
}
