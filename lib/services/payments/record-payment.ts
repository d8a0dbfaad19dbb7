import { and, asc, eq, inArray, or, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { invoices, payments } from "@/db/schema";
import type { Config } from "@/lib/config";
import { payableTotal } from "@/lib/domain/credit-note";
import { BusinessRuleError } from "@/lib/domain/errors";
import { invoiceAmountDue, paidTowardsTotal } from "@/lib/domain/fiat";
import { type InvoiceStatus, isPayable, transition } from "@/lib/domain/invoice-state";
import { takesCheckouts } from "@/lib/domain/link-payments";
import { fromStroops, sumAmounts, toStroops } from "@/lib/domain/money";
import {
  type Classification,
  classifyPayment,
  invoiceKeys,
  MISMATCH_MESSAGE,
  muxedKeys,
  OWN_INVOICE_MESSAGE,
  type PaymentTransaction,
  partOwner,
  recordable,
  underpaymentMessage,
} from "@/lib/domain/payment-match";
import { isPaidInFull } from "@/lib/domain/settlement";
import { newId } from "@/lib/ids";
import { assetFor } from "@/lib/stellar/assets";
import type { ServiceContext } from "../context";
import { pgErrorCode, withTransaction } from "../db";
import { enqueuePaymentEmails } from "../email/receipts";
import { applyTransition, type InvoiceChanges, SYSTEM_ACTOR } from "../invoices/lifecycle";
import { networkName } from "../invoices/network";
import { type InvoiceRow, lockInvoiceAnyState, type PaymentRow } from "../invoices/store";
import { checkoutIsFull, LINK_FULL } from "../links/checkout";
import { valueOperations, warmRates } from "./valuation";

// Recording a transaction against an invoice (docs/decisions.md, Partial payments): every
// operation that reached the freelancer wallet with the invoice's memo becomes a Payment
// row (or at the invoice's muxed address, docs/decisions.md, Muxed addresses), all of one
// transaction together, applied or not; applied amounts add to amountPaid,
// and the invoice becomes PAID once it is paid in full. A transaction's operations to one
// wallet belong to one invoice: one transaction may pay several wallets' invoices with the
// same number, each its own part.

/** The rows of a transaction's operations to one wallet (its part), in operation order. */
async function rowsOfPart(db: DbOrTx, hash: string, wallet: string): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.transactionHash, hash), eq(payments.toWallet, wallet)))
    .orderBy(asc(payments.operationIndex));
}

/**
 * The classifier run against an invoice row: its terms and state, the issuer of its
 * currency on its network, which invoice the transaction's operations to its wallet are
 * recorded for already, and the wallet's other invoices the transaction names
 * (`otherInvoicesNamed`). Shared by the recorder and submit's check before it sends anything.
 */
export function classifyAgainstInvoice(
  config: Config,
  invoice: InvoiceRow,
  transaction: PaymentTransaction,
  recordedFor: string | null,
  linkFull = false,
  otherInvoices: NamedInvoice[] = [],
): Classification {
  return classifyPayment({
    invoiceId: invoice.id,
    invoice: {
      invoiceNumber: invoice.invoiceNumber,
      freelancerWallet: invoice.freelancerWallet,
      currency: invoice.currency,
      total: invoice.total,
      createdAt: invoice.createdAt,
      allowCreateAccount: invoice.kind === "LINK" && invoice.activateNewAccounts,
      status: invoice.status,
      deleted: invoice.deletedAt !== null,
      linkParent: invoice.kind === "LINK" && takesCheckouts(invoice),
      linkFull,
      muxedId: invoice.muxedId,
    },
    otherInvoices: {
      muxedIds: otherInvoices.map((i) => i.muxedId),
      numbers: otherInvoices.map((i) => i.invoiceNumber),
    },
    expectedIssuer: assetFor(config, networkName(invoice.networkPassphrase), invoice.currency)
      .issuer,
    transaction,
    recordedFor,
  });
}

/** Which invoice a transaction's operations to `wallet` are recorded for (null: none yet). */
export async function partRecordedFor(
  db: DbOrTx,
  hash: string,
  wallet: string,
): Promise<string | null> {
  const [row] = await db
    .select({ invoiceId: payments.invoiceId })
    .from(payments)
    .where(and(eq(payments.transactionHash, hash), eq(payments.toWallet, wallet)))
    .limit(1);
  return row?.invoiceId ?? null;
}

/** An invoice a transaction names: by its number (the text memo) or its muxed address. */
export type NamedInvoice = {
  id: string;
  invoiceNumber: string;
  wallet: string;
  muxedId: string;
};

/**
 * The invoices of the network the transactions name, in any state, soft-deleted included:
 * those of a wallet a paying operation reaches whose number is the text memo (`invoiceKeys`),
 * and those whose muxed address an operation was sent to (`muxedKeys`). One query for a whole
 * page of transactions.
 */
export async function invoicesNamedBy(
  db: DbOrTx,
  networkPassphrase: string,
  transactions: readonly PaymentTransaction[],
): Promise<NamedInvoice[]> {
  const byMemo = transactions.flatMap(invoiceKeys);
  const byAddress = transactions.flatMap(muxedKeys);
  if (byMemo.length === 0 && byAddress.length === 0) return [];
  const named: SQL[] = [];
  if (byMemo.length > 0) {
    named.push(
      and(
        inArray(invoices.freelancerWallet, [...new Set(byMemo.map((k) => k.wallet))]),
        inArray(invoices.invoiceNumber, [...new Set(byMemo.map((k) => k.invoiceNumber))]),
      ) as SQL,
    );
  }
  if (byAddress.length > 0) {
    named.push(
      and(
        inArray(invoices.freelancerWallet, [...new Set(byAddress.map((k) => k.wallet))]),
        inArray(invoices.muxedId, [...new Set(byAddress.map((k) => k.muxedId))]),
      ) as SQL,
    );
  }
  return db
    .select({
      id: invoices.id,
      invoiceNumber: invoices.invoiceNumber,
      wallet: invoices.freelancerWallet,
      muxedId: invoices.muxedId,
    })
    .from(invoices)
    .where(and(eq(invoices.networkPassphrase, networkPassphrase), or(...named)));
}

/**
 * The invoices each transaction pays, by hash: per wallet its operations reach, the one
 * invoice of that wallet whose part they are (`partOwner`: the first muxed address naming an
 * invoice, else the invoice numbered as the text memo), in operation order. At most one per
 * wallet.
 */
export async function invoicesPaidBy(
  db: DbOrTx,
  networkPassphrase: string,
  transactions: readonly PaymentTransaction[],
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  const rows = await invoicesNamedBy(db, networkPassphrase, transactions);
  if (rows.length === 0) return found;
  for (const tx of transactions) {
    const wallets = [...new Set(tx.operations.map((op) => op.to))];
    const ids = wallets.flatMap(
      (wallet) =>
        partOwner(
          tx,
          wallet,
          rows.filter((r) => r.wallet === wallet),
        )?.id ?? [],
    );
    if (ids.length > 0) found.set(tx.hash, ids);
  }
  return found;
}

/** What recording one transaction did to one invoice. */
export type Recording = {
  /** The invoice as it is now. */
  invoice: InvoiceRow;
  /** Its status before this transaction. */
  statusBefore: InvoiceStatus;
  /** This transaction's rows (new, or recorded before by another path). */
  rows: PaymentRow[];
  /** True when this call inserted the rows; false when they were there already. */
  created: boolean;
  /** What this transaction added to amountPaid (7 decimals). */
  applied: string;
  /** The amount due before this transaction. */
  dueBefore: string;
  /** This transaction moved the invoice to PAID. */
  paidNow: boolean;
  /** Every operation was the freelancer paying themself: nothing was recorded. */
  selfPaymentOnly: boolean;
};

/**
 * Records a transaction against an invoice, whichever path saw it (watcher, confirm,
 * submit), in one database transaction: lock the invoice (any state, soft-deleted
 * included), classify, and unless the transaction's operations to its wallet have rows
 * already insert one row per such operation (self-payments excluded), add the applied
 * amounts to amountPaid and write the move: `pay` when a payable invoice is now paid in full
 * (audit PAID, invoice.paid, link.paid, the invoice's transactionHash/ledgerNumber/
 * payerWallet/paidAt of this transaction), `receive` otherwise (audit PAYMENT_RECEIVED,
 * status kept), each with one payment event per row.
 * Racing paths queue on the row lock and find the rows; the unique (hash, operation) index
 * turns a racer that slipped past into "already recorded". Classifier rejections throw
 * BusinessRuleError with its message.
 */
export async function recordTransaction(
  ctx: Pick<ServiceContext, "db" | "config" | "now">,
  invoiceId: string,
  tx: PaymentTransaction,
): Promise<Recording> {
  return withTransaction(ctx.db, async (db) => {
    try {
      // A savepoint: after a unique violation the transaction is still usable to re-read.
      return await db.transaction((inner) => recordLocked(inner, ctx, invoiceId, tx));
    } catch (err) {
      if (pgErrorCode(err).code !== "23505") throw err;
      // A concurrent commit recorded this part first: ours when it is this invoice's.
      const invoice = await lockInvoiceAnyState(db, invoiceId);
      const rows = await rowsOfPart(db, tx.hash, invoice.freelancerWallet);
      if (rows.length === 0 || rows[0].invoiceId !== invoiceId) {
        throw new BusinessRuleError(MISMATCH_MESSAGE);
      }
      return alreadyRecorded(invoice, rows);
    }
  });
}

/**
 * Records `tx` against each invoice in turn, each part in its own savepoint (inside a caller's
 * transaction) or transaction. A classifier refusal is logged and skipped: that part is not
 * the invoice's. The recordings made, in order.
 */
export async function recordEach(
  ctx: Pick<ServiceContext, "db" | "config" | "now" | "logger">,
  invoiceIds: readonly string[],
  tx: PaymentTransaction,
): Promise<Recording[]> {
  const recordings: Recording[] = [];
  for (const invoiceId of invoiceIds) {
    try {
      recordings.push(await recordTransaction(ctx, invoiceId, tx));
    } catch (err) {
      if (!(err instanceof BusinessRuleError)) throw err;
      ctx.logger.info("payment does not match", {
        invoiceId,
        hash: tx.hash,
        reason: err.message,
      });
    }
  }
  return recordings;
}

/**
 * Confirm and submit: records `tx` against the asked invoice (their answer), then against
 * every other invoice it pays, another wallet's with the same number (`recordEach`), so that
 * no freelancer's part waits for the watcher. Each part counts once whichever path records
 * it first.
 */
export async function recordWithOthers(
  ctx: Pick<ServiceContext, "db" | "config" | "now" | "logger">,
  invoiceId: string,
  tx: PaymentTransaction,
): Promise<Recording> {
  await warmRates(ctx);
  const recording = await recordTransaction(ctx, invoiceId, tx);
  try {
    const paid = await invoicesPaidBy(ctx.db, recording.invoice.networkPassphrase, [tx]);
    await recordEach(ctx, paid.get(tx.hash)?.filter((id) => id !== invoiceId) ?? [], tx);
  } catch (err) {
    // The asked invoice is recorded and answered; the watcher records the others later.
    ctx.logger.warn("other invoices of the transaction not recorded", {
      hash: tx.hash,
      reason: err instanceof Error ? err.message : String(err),
    });
  }
  return recording;
}

async function recordLocked(
  db: DbOrTx,
  ctx: Pick<ServiceContext, "config" | "now">,
  invoiceId: string,
  tx: PaymentTransaction,
): Promise<Recording> {
  const invoice = await lockInvoiceAnyState(db, invoiceId);
  const existing = await rowsOfPart(db, tx.hash, invoice.freelancerWallet);
  // A checkout's payment counts only while its link has a place for it (link_full otherwise).
  const linkFull =
    existing.length === 0 && (await checkoutIsFull(db, invoice, tx.createdAt, ctx.now()));
  const result = classifyAgainstInvoice(
    ctx.config,
    invoice,
    tx,
    existing[0]?.invoiceId ?? null,
    linkFull,
    await otherInvoicesNamed(db, invoice, tx),
  );
  if (!result.ok) throw new BusinessRuleError(result.message);
  if (existing.length > 0) return alreadyRecorded(invoice, existing);

  const dueBefore = invoiceAmountDue(invoice);
  const values = await valueOperations(
    db,
    ctx,
    invoice,
    recordable(result.operations),
    result.createdAt,
  );
  // On a fiat-priced invoice what counts is the value; one that could not be valued is
  // recorded and shown, and does not count (docs/decisions.md, Fiat pricing).
  const ops = recordable(result.operations).map((op) =>
    invoice.priceCurrency && op.applied && values.get(op.operationIndex)?.priceValue == null
      ? { ...op, applied: false, unappliedReason: "unpriced" as const }
      : op,
  );
  const base = { invoice, statusBefore: invoice.status, dueBefore, paidNow: false };
  if (ops.length === 0) {
    return { ...base, rows: [], created: false, applied: "0.0000000", selfPaymentOnly: true };
  }
  const rows = await db
    .insert(payments)
    .values(
      ops.map((op) => ({
        id: newId(),
        invoiceId,
        transactionHash: result.hash,
        innerTransactionHash: tx.innerHash ?? null,
        operationId: op.operationId,
        ledgerNumber: result.ledger,
        operationIndex: op.operationIndex,
        fromWallet: op.from,
        fromAddress: op.fromMuxed ?? null,
        toWallet: op.to,
        amount: op.amount,
        asset: op.assetCode,
        assetIssuer: op.assetIssuer,
        applied: op.applied,
        unappliedReason: op.unappliedReason,
        status: "CONFIRMED" as const,
        confirmedAt: result.createdAt,
        ...values.get(op.operationIndex),
      })),
    )
    .returning();
  rows.sort((a, b) => a.operationIndex - b.operationIndex);

  const unapplied = rows.find((r) => !r.applied);
  const payer = (rows.find((r) => r.applied) ?? rows[0]).fromWallet;
  const {
    invoice: updated,
    applied,
    paidNow,
  } = await applyPaymentRows(db, ctx, invoice, rows, {
    actor: payer ?? SYSTEM_ACTOR,
    paid: {
      transactionHash: result.hash,
      ledgerNumber: result.ledger,
      payerWallet: payer,
      clientWallet: payer,
      // The ledger's time of the payment, not the time it was noticed.
      paidAt: result.createdAt,
    },
    changes: {
      transactionHash: result.hash,
      ledgerNumber: result.ledger,
      ...(unapplied && {
        reason: unapplied.unappliedReason,
        asset: unapplied.asset,
        assetIssuer: unapplied.assetIssuer,
        unappliedAmount: sumAmounts(rows.filter((r) => !r.applied).map((r) => r.amount)),
      }),
    },
  });
  return {
    ...base,
    invoice: updated,
    rows,
    created: true,
    applied,
    paidNow,
    selfPaymentOnly: false,
  };
}

/**
 * The one rule for payments just recorded against a locked invoice, whichever way they came
 * (a ledger transaction here, a payment received outside Stellar in manual-payment.ts): their
 * applied values add to amountPaid; a payable, live invoice that is now paid in full moves to
 * PAID (`pay`: audit PAID, invoice.paid, link.paid, with `paid` for the invoice's payment
 * columns), otherwise the status stays (`receive`: audit PAYMENT_RECEIVED); each row gets its
 * payment event, and the receipt and payment notice are queued, all in the caller's
 * transaction (docs/decisions.md, Partial payments).
 */
export async function applyPaymentRows(
  db: DbOrTx,
  ctx: Pick<ServiceContext, "config" | "now">,
  invoice: InvoiceRow,
  rows: PaymentRow[],
  how: {
    actor: string;
    /** What the invoice keeps of the payment that completes it (hash, payer, paidAt). */
    paid: InvoiceChanges;
    /** Audit `changes` besides the amount applied and amountPaid. */
    changes: Record<string, unknown>;
  },
): Promise<{ invoice: InvoiceRow; applied: string; paidNow: boolean }> {
  const applied = appliedValue(invoice, rows);
  const amountPaid = sumAmounts([invoice.amountPaid, applied]);
  const paidNow =
    isPayable(invoice.status) &&
    invoice.deletedAt === null &&
    toStroops(applied) > 0n &&
    isPaidInFull(
      paidTowardsTotal(amountPaid, invoice.priceCurrency),
      payableTotal(invoice),
      invoice.paymentTolerance,
    );
  const updated = await applyTransition(db, invoice, paidNow ? "pay" : "receive", {
    actor: how.actor,
    at: ctx.now(),
    set: paidNow ? { amountPaid, ...how.paid } : { amountPaid },
    changes: { ...how.changes, amount: applied, amountPaid },
    payments: rows,
  });
  // The receipt and the payment notice, with the payment (docs/decisions.md, Reminders and receipts).
  await enqueuePaymentEmails(db, ctx.config, updated, rows, applied, ctx.now());
  return { invoice: updated, applied, paidNow };
}

/**
 * What rows add to amountPaid, in the invoice's units: the asset amounts, or on a fiat-priced
 * invoice their values (docs/decisions.md, Fiat pricing). 7 decimals.
 */
function appliedValue(invoice: InvoiceRow, rows: readonly PaymentRow[]): string {
  const counted = rows.filter((r) => r.applied);
  return sumAmounts(counted.map((r) => (invoice.priceCurrency ? (r.priceValue ?? "0") : r.amount)));
}

/** The invoice's wallet's other invoices that `tx` names (its memo, its muxed addresses). */
export async function otherInvoicesNamed(
  db: DbOrTx,
  invoice: Pick<InvoiceRow, "id" | "freelancerWallet" | "networkPassphrase">,
  tx: PaymentTransaction,
): Promise<NamedInvoice[]> {
  const named = await invoicesNamedBy(db, invoice.networkPassphrase, [tx]);
  return named.filter((i) => i.wallet === invoice.freelancerWallet && i.id !== invoice.id);
}

/** What confirm and submit answer with 200. */
export type RecordOutcome =
  | { kind: "recorded"; invoice: InvoiceRow; payment: PaymentRow }
  | { kind: "already_paid"; invoice: InvoiceRow };

/**
 * The confirm/submit contract over a recording (docs/decisions.md, Submit and confirm),
 * thrown only after the recording has committed: a transaction that made the invoice PAID is
 * `recorded` (200 confirmed); a PAID invoice otherwise answers `already_paid`; only
 * self-payments: 400 `Cannot pay your own invoice`; nothing applied: the status refusal of a
 * non-payable invoice, else 400 `Transaction does not match invoice`; applied but not paid in
 * full: 400 `Underpayment: paid X, expected Y` with the invoice's amountPaid and amountDue.
 */
export function answerFor(recording: Recording): RecordOutcome {
  const { invoice, rows } = recording;
  if (recording.selfPaymentOnly) throw new BusinessRuleError(OWN_INVOICE_MESSAGE);
  if (invoice.status === "PAID") {
    const payment = rows.find((r) => r.applied);
    return recording.paidNow && payment
      ? { kind: "recorded", invoice, payment }
      : { kind: "already_paid", invoice };
  }
  if (toStroops(recording.applied) === 0n) {
    if (invoice.deletedAt === null) transition(invoice.status, "pay"); // not payable: 400
    // Recorded, not counted: the link had no place left (docs/decisions.md, Payment links).
    if (rows.some((r) => r.unappliedReason === "link_full")) throw new BusinessRuleError(LINK_FULL);
    throw new BusinessRuleError(MISMATCH_MESSAGE);
  }
  throw new BusinessRuleError(underpaymentMessage(recording.applied, recording.dueBefore), {
    amountPaid: invoice.amountPaid,
    amountDue: invoiceAmountDue(invoice),
  });
}

/** The rows were there already: what this transaction contributed, from its rows. */
function alreadyRecorded(invoice: InvoiceRow, rows: PaymentRow[]): Recording {
  const applied = appliedValue(invoice, rows);
  const before = toStroops(invoice.amountPaid) - toStroops(applied);
  return {
    invoice,
    statusBefore: invoice.status,
    rows,
    created: false,
    applied,
    dueBefore: invoiceAmountDue({ ...invoice, amountPaid: fromStroops(before > 0n ? before : 0n) }),
    paidNow: false,
    selfPaymentOnly: false,
  };
}
