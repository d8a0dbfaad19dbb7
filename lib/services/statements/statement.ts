import { and, asc, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { creditNotes, invoices, payments, refunds } from "@/db/schema";
import { amountUnit } from "@/lib/domain/fiat";
import { invoiceLanguage } from "@/lib/domain/invoice-defaults";
import { toStroops } from "@/lib/domain/money";
import {
  buildStatement,
  type CurrencyStatement,
  paymentValue,
  refundValues,
  type StatementEntry,
} from "@/lib/domain/statement";
import { costlyPolicy } from "@/lib/ratelimit/policies";
import type { StatementQuery } from "@/lib/schemas/statements";
import { keyNetworkCondition } from "@/lib/services/auth/key-network";
import { getClientForOwner } from "@/lib/services/clients/manage-clients";
import type { ClientRow } from "@/lib/services/clients/upsert-client";
import { getProfile, pdfProfileOf } from "@/lib/services/profile/profile";
import { NETWORK_PASSPHRASES } from "@/lib/stellar/networks";
import type { AuthedContext } from "../context";
import { statementCsv } from "./csv";
import { renderStatementPdf } from "./pdf";

/** A client's statement of account for a period (docs/decisions.md, Statements). */
export type Statement = {
  client: ClientRow;
  from: string;
  to: string;
  currencies: CurrencyStatement[];
};

const DAY_MS = 86_400_000;

/**
 * Every movement on the client's account with the caller, from the rows as they are (no table
 * of its own): the client's invoices are the caller's sent invoices addressed to the client's
 * email (case and spaces aside), drafts, deleted invoices and payment links left out, and a
 * cancelled invoice only with the credit note its cancel issued (one cancelled before credit
 * notes existed, with none, is left out with its money). Then their applied payments, the
 * confirmed refunds of those, and their credit notes, each in the invoice's unit.
 */
export async function statementEntries(
  ctx: AuthedContext,
  client: ClientRow,
  network?: StatementQuery["network"],
): Promise<StatementEntry[]> {
  const rows = await ctx.db
    .select({
      id: invoices.id,
      number: invoices.invoiceNumber,
      status: invoices.status,
      total: invoices.total,
      amountCredited: invoices.amountCredited,
      currency: invoices.currency,
      priceCurrency: invoices.priceCurrency,
      sentAt: invoices.sentAt,
    })
    .from(invoices)
    .where(
      and(
        eq(invoices.freelancerWallet, ctx.wallet),
        ...keyNetworkCondition(ctx),
        ...(network ? [eq(invoices.networkPassphrase, NETWORK_PASSPHRASES[network])] : []),
        eq(invoices.kind, "INVOICE"),
        isNull(invoices.deletedAt),
        ne(invoices.status, "DRAFT"),
        isNotNull(invoices.sentAt),
        sql`lower(trim(${invoices.clientEmail})) = lower(trim(${client.email}))`,
      ),
    );
  const counted = rows.filter((r) => r.status !== "CANCELLED" || toStroops(r.amountCredited) > 0n);
  if (counted.length === 0) return [];
  const byId = new Map(counted.map((r) => [r.id, r]));
  const ids = [...byId.keys()];
  const [paid, sentBack, credits] = await Promise.all([
    ctx.db
      .select()
      .from(payments)
      .where(and(inArray(payments.invoiceId, ids), eq(payments.applied, true))),
    ctx.db
      .select({
        id: refunds.id,
        paymentId: refunds.paymentId,
        amount: refunds.amount,
        confirmedAt: refunds.confirmedAt,
      })
      .from(refunds)
      .where(and(inArray(refunds.invoiceId, ids), eq(refunds.status, "CONFIRMED")))
      .orderBy(asc(refunds.confirmedAt), asc(refunds.id)),
    ctx.db
      .select({
        number: creditNotes.number,
        invoiceId: creditNotes.invoiceId,
        total: creditNotes.total,
        createdAt: creditNotes.createdAt,
      })
      .from(creditNotes)
      .where(inArray(creditNotes.invoiceId, ids)),
  ]);
  const entries: StatementEntry[] = [];
  const of = (invoiceId: string) => {
    const inv = byId.get(invoiceId);
    if (!inv) throw new Error(`statement: invoice ${invoiceId} not read`);
    return { invoiceId, invoiceNumber: inv.number, currency: amountUnit(inv) };
  };
  for (const inv of counted) {
    entries.push({
      kind: "invoice",
      at: inv.sentAt as Date,
      amount: inv.total,
      reference: inv.number,
      ...of(inv.id),
    });
  }
  const paymentsById = new Map(paid.map((p) => [p.id, p]));
  for (const p of paid) {
    entries.push({
      kind: "payment",
      at: p.confirmedAt,
      amount: paymentValue(p),
      reference: p.id,
      ...of(p.invoiceId),
    });
  }
  // Each applied payment's confirmed refunds, in the order they were confirmed.
  const refundsOf = new Map<string, typeof sentBack>();
  for (const r of sentBack) {
    if (!paymentsById.has(r.paymentId) || r.confirmedAt === null) continue;
    refundsOf.set(r.paymentId, [...(refundsOf.get(r.paymentId) ?? []), r]);
  }
  for (const [paymentId, list] of refundsOf) {
    const payment = paymentsById.get(paymentId);
    if (!payment) continue;
    const values = refundValues(
      { ...payment, amountRefunded: "0" },
      list.map((r) => r.amount),
    );
    list.forEach((r, i) => {
      if (toStroops(values[i]) === 0n) return;
      entries.push({
        kind: "refund",
        at: r.confirmedAt as Date,
        amount: values[i],
        reference: r.id,
        ...of(payment.invoiceId),
      });
    });
  }
  for (const c of credits) {
    entries.push({
      kind: "credit_note",
      at: c.createdAt,
      amount: c.total,
      reference: c.number,
      ...of(c.invoiceId),
    });
  }
  return entries;
}

/** GET /api/clients/:id/statement: the caller's client (403/404 as the other client endpoints). */
export async function clientStatement(
  ctx: AuthedContext,
  clientId: string,
  query: Pick<StatementQuery, "from" | "to" | "network">,
): Promise<Statement> {
  return statementOf(ctx, await getClientForOwner(ctx, clientId), query);
}

/** The caller's statement for a client row (saved, or made from an invoice's client fields). */
export async function statementOf(
  ctx: AuthedContext,
  client: ClientRow,
  query: Pick<StatementQuery, "from" | "to" | "network">,
): Promise<Statement> {
  const from = new Date(`${query.from}T00:00:00Z`);
  const to = new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS);
  const entries = await statementEntries(ctx, client, query.network);
  return { client, from: query.from, to: query.to, currencies: buildStatement(entries, from, to) };
}

/** The statement as a file: CSV, or a PDF in the client's language (docs/decisions.md, Statements). */
export async function clientStatementFile(
  ctx: AuthedContext,
  clientId: string,
  query: StatementQuery,
): Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string; filename: string }> {
  // A file is a costly request (docs/decisions.md, Limits); the JSON is a few indexed reads.
  await ctx.limitCaller?.(costlyPolicy(ctx.config));
  return statementFile(ctx, await clientStatement(ctx, clientId, query), query.format);
}

/** A statement as CSV or as a PDF in the client's language, with its file name. */
export async function statementFile(
  ctx: AuthedContext,
  statement: Statement,
  format: StatementQuery["format"],
): Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string; filename: string }> {
  const query = { from: statement.from, to: statement.to, format };
  const filename = `statement_${query.from}_${query.to}`;
  if (query.format === "csv") {
    return {
      body: new TextEncoder().encode(statementCsv(statement)),
      contentType: "text/csv; charset=utf-8; header=present",
      filename: `${filename}.csv`,
    };
  }
  const profile = await getProfile(ctx.db, ctx.wallet);
  const lang = invoiceLanguage(null, statement.client, profile);
  const sellerLines = (pdfProfileOf(profile, lang)?.lines ?? []).filter((l): l is string =>
    Boolean(l),
  );
  const pdf = await renderStatementPdf(statement, { lang, sellerLines, issuedAt: ctx.now() });
  return { body: new Uint8Array(pdf), contentType: "application/pdf", filename: `${filename}.pdf` };
}
