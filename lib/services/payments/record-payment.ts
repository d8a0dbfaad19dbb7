import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { invoices, payments } from "@/db/schema";
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
import { emitEvent, writeAudit } from "../audit";
import type { ServiceContext } from "../context";
import { pgErrorCode, withTransaction } from "../db";
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
 * watcher). In one transaction: lock the invoice, run the verifier, move it to PAID, insert
 * the Payment (unique hash), write the PAID audit entry and the invoice.paid +
 * payment.confirmed events. Racers queue on the row lock; the losers see PAID and answer
 * `already_paid`. Verifier rejections throw BusinessRuleError with the spec's message.
 */
export async function verifyAndRecordPayment(
  ctx: Pick<ServiceContext, "db" | "config">,
  invoiceId: string,
  tx: PaymentTransaction,
): Promise<RecordOutcome> {
  try {
    return await withTransaction(ctx.db, async (db) => {
      const invoice = await lockLiveInvoice(db, invoiceId);
      if (invoice.status === "PAID") return { kind: "already_paid", invoice };
      const move = transition(invoice.status, "pay");

      const result = await verifyAgainstInvoice(db, ctx.config, invoice, tx);
      if (!result.ok) throw new BusinessRuleError(result.message);
      const p = result.payment;
      const paidAt = p.createdAt;

      const [updated] = await db
        .update(invoices)
        .set({
          status: move.to,
          transactionHash: p.hash,
          ledgerNumber: p.ledger,
          payerWallet: p.from,
          clientWallet: p.from,
          paidAt,
          updatedAt: new Date(),
        })
        .where(eq(invoices.id, invoiceId))
        .returning();
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
          confirmedAt: paidAt,
        })
        .returning();
      const now = new Date();
      await writeAudit(db, {
        invoiceId,
        action: "PAID",
        actorWallet: p.from,
        changes: {
          status: { from: move.from, to: move.to },
          transactionHash: p.hash,
          ledgerNumber: p.ledger,
          amount: p.amount,
        },
        at: now,
      });
      await emitEvent(db, {
        type: "invoice.paid",
        wallet: invoice.freelancerWallet,
        invoiceId,
        at: now,
        data: {
          id: invoiceId,
          invoiceNumber: invoice.invoiceNumber,
          status: move.to,
          previousStatus: move.from,
          total: invoice.total,
          currency: invoice.currency,
          transactionHash: p.hash,
          ledgerNumber: p.ledger,
          payerWallet: p.from,
          paidAt: paidAt.toISOString(),
        },
      });
      await emitEvent(db, {
        type: "payment.confirmed",
        wallet: invoice.freelancerWallet,
        invoiceId,
        at: now,
        data: {
          id: payment.id,
          invoiceId,
          transactionHash: p.hash,
          ledgerNumber: p.ledger,
          fromWallet: p.from,
          toWallet: p.to,
          amount: p.amount,
          asset: invoice.currency,
          confirmedAt: paidAt.toISOString(),
        },
      });
      if (invoice.kind === "LINK") {
        await emitEvent(db, {
          type: "link.paid",
          wallet: invoice.freelancerWallet,
          invoiceId,
          at: now,
          data: {
            id: invoiceId,
            amount: invoice.total,
            asset: invoice.currency,
            transactionHash: p.hash,
            metadata: { reference: invoice.linkReference },
            paidAt: paidAt.toISOString(),
          },
        });
      }
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
