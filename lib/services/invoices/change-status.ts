import type { DbOrTx } from "@/db/client";
import type { InvoiceTrigger } from "@/lib/domain/invoice-state";
import { MAX_QUOTE_AGE_MS, type RateAsset } from "@/lib/prices/pairs";
import { getRate } from "@/lib/prices/rates";
import { actorOf } from "@/lib/services/context";
import { creditOnCancel } from "@/lib/services/credit-notes/credit-notes";
import { queueEmailOnSend } from "@/lib/services/email/invoice-email";
import type { AuthedContext } from "../context";
import { withTransaction } from "../db";
import { assertCanReceive } from "../payments/recipient-readiness";
import { applyTransition, type TransitionDetails } from "./lifecycle";
import { networkName } from "./network";
import { assertOwner, getLiveInvoice, type InvoiceRow, lockInvoiceForOwner } from "./store";

/** One owner action on one invoice: lock it as its owner, then apply the move. */
function asOwner(
  ctx: AuthedContext,
  id: string,
  trigger: InvoiceTrigger,
  details: (now: Date) => Partial<TransitionDetails> = () => ({}),
  after?: (tx: DbOrTx, row: InvoiceRow, now: Date) => Promise<InvoiceRow | undefined>,
): Promise<InvoiceRow> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const current = await lockInvoiceForOwner(tx, id, ctx);
    const row = await applyTransition(tx, current, trigger, {
      actor: actorOf(ctx),
      at: now,
      ...details(now),
    });
    return (after ? await after(tx, row, now) : undefined) ?? row;
  });
}

/**
 * DRAFT -> PENDING: the invoice becomes payable and read-only. A draft is first checked on its
 * network: the freelancer's wallet must be able to receive its asset (docs/decisions.md,
 * Recipient readiness), read before the row is locked so no lock waits on Horizon.
 */
export async function sendInvoice(ctx: AuthedContext, id: string): Promise<InvoiceRow> {
  const current = await getLiveInvoice(ctx.db, id);
  assertOwner(current, ctx);
  if (current.status === "DRAFT") {
    await assertCanReceive(ctx, current, networkName(current.networkPassphrase));
  }
  // VAT in the national currency: the rate is fixed now, read before the row is locked
  // (docs/decisions.md, Tax currency). No fresh price: 503, nothing sent.
  const fixed = current.status === "DRAFT" ? await taxRateAtSend(ctx, current) : null;
  // The client's email is queued with the send, in its transaction (docs/decisions.md, Email).
  return asOwner(
    ctx,
    id,
    "send",
    () =>
      fixed
        ? {
            set: {
              taxExchangeRate: fixed.rate,
              taxRateSource: fixed.source,
              taxRateAt: fixed.at,
            },
            changes: {
              taxExchange: {
                currency: current.taxCurrency,
                rate: fixed.rate,
                source: fixed.source,
                at: fixed.at.toISOString(),
              },
            },
          }
        : {},
    async (tx, sent, now) => {
      await queueEmailOnSend(tx, ctx.config, sent, now);
      return sent;
    },
  );
}

/** 1 unit of the invoice's amounts (its price currency, else its asset) in its tax currency. */
async function taxRateAtSend(
  ctx: AuthedContext,
  invoice: InvoiceRow,
): Promise<{ rate: string; source: string; at: Date } | null> {
  if (!invoice.taxCurrency) return null;
  const unit = invoice.priceCurrency ?? invoice.currency;
  // A fiat unit is its stablecoin's (USD = USDC, EUR = EURC, exact as everywhere here).
  const base: RateAsset = unit === "USD" ? "USDC" : unit === "EUR" ? "EURC" : unit;
  const rate = await getRate(ctx, base, invoice.taxCurrency, { maxAgeMs: MAX_QUOTE_AGE_MS });
  return { rate: rate.rate, source: rate.source, at: rate.at };
}

/**
 * Owner cancels from DRAFT, PENDING, PROCESSING, FAILED or EXPIRED (docs/decisions.md). A sent
 * invoice's issued number is not left dangling: the cancel issues a credit note for whatever is
 * still uncredited, in its transaction (docs/decisions.md, Credit notes).
 */
export function cancelInvoice(
  ctx: AuthedContext,
  id: string,
  reason: string | undefined,
): Promise<InvoiceRow> {
  return asOwner(
    ctx,
    id,
    "cancel",
    () => ({ changes: { reason: reason ?? null }, reason: reason ?? null }),
    (tx, cancelled, now) => creditOnCancel(tx, ctx, cancelled, reason, now),
  );
}

/** Soft delete, DRAFT only: hidden from every view, kept for the audit trail. */
export async function deleteInvoice(ctx: AuthedContext, id: string): Promise<void> {
  await asOwner(ctx, id, "delete", (now) => ({
    changes: { deletedAt: { from: null, to: now.toISOString() } },
  }));
}
