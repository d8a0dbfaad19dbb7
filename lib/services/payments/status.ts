import { and, eq, isNull, sql } from "drizzle-orm";
import { isRootDatabase, prepared } from "@/db/prepared";
import { invoices } from "@/db/schema";
import { NotFoundError } from "@/lib/domain/errors";
import { isPayable } from "@/lib/domain/invoice-state";
import { isId } from "@/lib/ids";
import type { ServiceContext } from "../context";
import {
  INVOICE_NOT_FOUND,
  type InvoiceRow,
  loadPayments,
  type PaymentRow,
} from "../invoices/store";
import { currentQuote, type QuoteRow } from "./quotes";

// The payment status a checkout polls (GET /api/payments/:id/status, its event stream), apart
// from settle.ts: the status route loads only this, not the settlement's ledger clients,
// transaction decoding and payment recording (ARCHITECTURE.md, Memory: cold start).

export type PaymentStatus = Pick<
  InvoiceRow,
  | "id"
  | "status"
  | "transactionHash"
  | "ledgerNumber"
  | "paidAt"
  | "payerWallet"
  | "total"
  | "amountPaid"
  | "amountCredited"
  | "updatedAt"
  | "priceCurrency"
> & { payments: PaymentRow[]; quote: QuoteRow | null };

/**
 * Polled every few seconds by checkouts without the pushed status, and read for every push:
 * from this instance's cache while the invoice has not changed (`ctx.statusCache`), else one
 * narrow prepared query, then the payments received (prepared too) for the receipt and
 * "X paid, Y remaining".
 */
export async function getPaymentStatus(
  ctx: ServiceContext,
  invoiceId: string,
): Promise<PaymentStatus> {
  if (!isId(invoiceId)) throw new NotFoundError(INVOICE_NOT_FOUND);
  // Not inside a transaction: what it has written is not committed, let alone notified.
  const cache = isRootDatabase(ctx.db) ? ctx.statusCache : undefined;
  const cached = cache?.get(invoiceId, ctx.now());
  if (cached) return cached;
  const epoch = cache?.begin() ?? 0;
  const status = await readPaymentStatus(ctx, invoiceId);
  cache?.set(invoiceId, status, epoch, ctx.now());
  return status;
}

async function readPaymentStatus(ctx: ServiceContext, invoiceId: string): Promise<PaymentStatus> {
  const query = prepared(ctx.db, "payment_status", (db) =>
    db
      .select({
        id: invoices.id,
        status: invoices.status,
        transactionHash: invoices.transactionHash,
        ledgerNumber: invoices.ledgerNumber,
        paidAt: invoices.paidAt,
        payerWallet: invoices.payerWallet,
        total: invoices.total,
        amountPaid: invoices.amountPaid,
        // Credit notes lower the amount due (docs/decisions.md, Credit notes).
        amountCredited: invoices.amountCredited,
        updatedAt: invoices.updatedAt,
        priceCurrency: invoices.priceCurrency,
      })
      .from(invoices)
      .where(and(eq(invoices.id, sql.placeholder("id")), isNull(invoices.deletedAt)))
      .limit(1)
      .prepare("payment_status"),
  );
  const [row] = await query.execute({ id: invoiceId });
  if (!row) throw new NotFoundError(INVOICE_NOT_FOUND);
  const [payments, quote] = await Promise.all([
    loadPayments(ctx.db, row.id),
    // Fiat-priced invoices only: the checkout shows the live quote and its countdown.
    // Only while it covers the amount due: a payment since replaced it (docs/decisions.md).
    row.priceCurrency && isPayable(row.status) ? currentQuote(ctx.db, row, ctx.now()) : undefined,
  ]);
  return { ...row, payments, quote: quote ?? null };
}
