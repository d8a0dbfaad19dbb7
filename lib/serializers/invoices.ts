import { paymentPageUrl } from "@/lib/config";
import { payableTotal } from "@/lib/domain/credit-note";
import { amountOverpaid, type Currency, canonicalAmount, formatForFormA } from "@/lib/domain/money";
import { breakdownOf, taxInCurrency } from "@/lib/domain/tax";
import { type Serializer, serializer } from "@/lib/http/forms";
import { normalizeRate } from "@/lib/prices/pairs";
import {
  cancelledInvoice,
  deletedInvoice,
  type invoiceAmounts,
  invoicePage,
  invoiceParties,
  type invoiceState,
  invoiceStats,
  ownerInvoice,
  publicInvoice,
  sentInvoice,
} from "@/lib/schemas/invoices";
import type { FormA, FormB } from "@/lib/schemas/wire";
import type { InvoiceStats } from "@/lib/services/invoices/invoice-stats";
import type { InvoicePage } from "@/lib/services/invoices/list-invoices";
import type {
  AuditRow,
  InvoiceRow,
  LineItemRow,
  OwnerInvoice,
  PaymentRow,
} from "@/lib/services/invoices/store";
import type { PublicInvoice } from "@/lib/services/invoices/view-invoice";
import { muxedAddress } from "@/lib/stellar/muxed";
import type { z } from "@/lib/zod";
import { iso } from "./common";
import {
  numberOrNull,
  paidAndDueA,
  paidAndDueB,
  receivedPaymentA,
  receivedPaymentB,
} from "./received-payments";

/** Form A and Form B bodies of invoices (lib/schemas/invoices.ts), one place for each. */

type OwnerB = FormB<typeof ownerInvoice>;
type OwnerA = FormA<typeof ownerInvoice>;

const lineItemB = (i: LineItemRow): OwnerB["lineItems"][number] => ({
  id: i.id,
  invoiceId: i.invoiceId,
  description: i.description,
  quantity: i.quantity,
  rate: i.rate,
  amount: i.amount,
  ...lineTax(i),
});
const lineItemA = (i: LineItemRow): OwnerA["items"][number] => ({
  id: i.id,
  description: i.description,
  quantity: formatForFormA(i.quantity),
  rate: formatForFormA(i.rate),
  amount: formatForFormA(i.amount),
  ...lineTax(i),
  taxRate: i.taxRate === null ? null : formatForFormA(i.taxRate),
});
const lineTax = (i: LineItemRow) => ({
  taxRate: i.taxRate,
  taxCategory: i.taxCategory,
  exemptionReason: i.exemptionReason,
  exemptionReasonCode: i.exemptionReasonCode,
});

const paymentB = (p: PaymentRow): OwnerB["payments"][number] => {
  const { confirmedAt, ...received } = receivedPaymentB(p);
  return {
    id: p.id,
    invoiceId: p.invoiceId,
    ...received,
    innerTransactionHash: p.innerTransactionHash,
    toWallet: p.toWallet,
    amountRefunded: canonicalAmount(p.amountRefunded),
    status: p.status,
    confirmedAt,
    fiatCurrency: p.fiatCurrency,
    fiatValue: p.fiatValue,
    rate: p.rate === null ? null : normalizeRate(p.rate),
    rateSource: p.rateSource,
    rateAt: iso(p.rateAt),
    quoteId: p.quoteId,
    reference: p.reference,
    recordedBy: p.recordedBy,
    voidedAt: iso(p.voidedAt),
  };
};
const paymentA = (p: PaymentRow): OwnerA["payments"][number] => ({
  id: p.id,
  transactionHash: p.transactionHash,
  innerTransactionHash: p.innerTransactionHash,
  operationIndex: p.operationIndex,
  amount: formatForFormA(p.amount),
  currency: p.asset,
  assetIssuer: p.assetIssuer,
  applied: p.applied,
  unappliedReason: p.unappliedReason,
  amountRefunded: formatForFormA(p.amountRefunded),
  confirmedAt: p.confirmedAt.toISOString(),
  method: p.method,
  reference: p.reference,
  priceValue: numberOrNull(p.priceValue),
  paidLate: p.paidLate,
  fiatCurrency: p.fiatCurrency,
  fiatValue: numberOrNull(p.fiatValue),
});

const auditB = (a: AuditRow): OwnerB["auditLogs"][number] => ({
  id: a.id,
  invoiceId: a.invoiceId,
  action: a.action,
  actorWallet: a.actorWallet,
  changes: a.changes,
  createdAt: a.createdAt.toISOString(),
});
const auditA = (a: AuditRow): OwnerA["auditLog"][number] => ({
  action: a.action,
  actorWallet: a.actorWallet,
  timestamp: a.createdAt.toISOString(),
  ...(a.changes ? { metadata: a.changes } : {}),
});

/** Every field of `invoiceParties` is the row's column of the same name. */
const PARTY_KEYS = Object.keys(invoiceParties.shape) as (keyof z.output<typeof invoiceParties>)[];
const parties = (i: InvoiceRow): z.output<typeof invoiceParties> =>
  Object.fromEntries(PARTY_KEYS.map((key) => [key, i[key]])) as z.output<typeof invoiceParties>;

/** Form B amounts: the stored decimal strings. */
const amounts = (i: InvoiceRow): z.output<typeof invoiceAmounts> => ({
  subtotal: i.subtotal,
  taxRate: i.taxRate,
  taxAmount: i.taxAmount,
  discount: i.discount,
  total: i.total,
  taxBreakdown: breakdownOf(i),
  currency: i.currency,
  ...pricing(i),
  networkPassphrase: i.networkPassphrase,
});
const pricing = (i: InvoiceRow) => ({
  priceCurrency: i.priceCurrency,
  quoteTtlMinutes: i.quoteTtlMinutes,
});

/** The fields after the amounts, the same in both forms (Form B adds `cancelledAt` between). */
type State = z.output<typeof invoiceState>;
const dates = (
  i: InvoiceRow,
): Pick<State, "dueDate" | "sentAt" | "taxExchange" | "issueDate" | "paidAt"> => ({
  dueDate: iso(i.dueDate),
  sentAt: iso(i.sentAt),
  taxExchange:
    i.taxCurrency && i.taxExchangeRate && i.taxRateAt
      ? {
          currency: i.taxCurrency,
          rate: i.taxExchangeRate,
          source: i.taxRateSource ?? "fixed",
          at: i.taxRateAt.toISOString(),
          ...taxInCurrency(breakdownOf(i), i.taxExchangeRate),
        }
      : null,
  issueDate: i.sentAt ? i.sentAt.toISOString().slice(0, 10) : null,
  paidAt: iso(i.paidAt),
});
const settlement = (
  i: InvoiceRow,
  appUrl: string,
): Omit<State, "currency" | "networkPassphrase" | keyof ReturnType<typeof dates>> => ({
  transactionHash: i.transactionHash,
  ledgerNumber: i.ledgerNumber,
  payerWallet: i.payerWallet,
  muxedAddress: muxedAddress(i.freelancerWallet, i.muxedId),
  paymentLink: paymentPageUrl(appUrl, i.id),
  createdAt: i.createdAt.toISOString(),
  updatedAt: i.updatedAt.toISOString(),
  recurringId: i.recurringId,
  emailClient: i.emailClient,
  reminders: i.reminders,
  remindersStoppedAt: iso(i.remindersStoppedAt),
});

/** The owner view's credit notes (docs/decisions.md, Credit notes): the same in both forms. */
const creditsOf = (i: OwnerInvoice) => ({
  amountCredited: i.amountCredited,
  creditNotes: i.creditNotes.map((n) => ({
    id: n.id,
    number: n.number,
    reason: n.reason,
    taxAmount: n.taxAmount,
    total: n.total,
    refundId: n.refundId,
    pdfUrl: `/api/credit-notes/${n.id}/pdf`,
    createdAt: n.createdAt.toISOString(),
  })),
});

export const ownerInvoiceSerializer: Serializer<OwnerInvoice, typeof ownerInvoice> = serializer(
  ownerInvoice,
  {
    b: (i, { appUrl }): OwnerB => ({
      ...parties(i),
      ...amounts(i),
      ...paidAndDueB(i),
      amountOverpaid: amountOverpaid(payableTotal(i), i.amountPaid),
      paymentTolerance: i.paymentTolerance,
      ...dates(i),
      cancelledAt: iso(i.cancelledAt),
      ...settlement(i, appUrl),
      lineItems: i.lineItems.map(lineItemB),
      payments: i.payments.map(paymentB),
      auditLogs: i.auditLogs.map(auditB),
      ...creditsOf(i),
    }),
    a: (i, { appUrl }): OwnerA => ({
      ...parties(i),
      amount: formatForFormA(i.subtotal),
      taxRate: formatForFormA(i.taxRate),
      taxAmount: formatForFormA(i.taxAmount),
      discount: formatForFormA(i.discount),
      totalAmount: formatForFormA(i.total),
      taxBreakdown: breakdownOf(i).map((r) => ({
        ...r,
        rate: formatForFormA(r.rate),
        taxableAmount: formatForFormA(r.taxableAmount),
        taxAmount: formatForFormA(r.taxAmount),
      })),
      ...paidAndDueA(i),
      amountOverpaid: formatForFormA(amountOverpaid(payableTotal(i), i.amountPaid)),
      paymentTolerance: formatForFormA(i.paymentTolerance),
      currency: i.currency,
      networkPassphrase: i.networkPassphrase,
      ...pricing(i),
      ...dates(i),
      ...settlement(i, appUrl),
      items: i.lineItems.map(lineItemA),
      payments: i.payments.map(paymentA),
      auditLog: i.auditLogs.map(auditA),
      ...creditsOf(i),
    }),
  },
);

/**
 * The payer's view: who is paid and what for, and what was received; never emails,
 * addresses, notes or audit.
 */
export const publicInvoiceSerializer = serializer(publicInvoice, {
  b: (i: PublicInvoice): FormB<typeof publicInvoice> => ({
    id: i.id,
    invoiceNumber: i.invoiceNumber,
    status: i.status,
    title: i.title,
    description: i.description,
    freelancerWallet: i.freelancerWallet,
    freelancerName: i.freelancerName,
    freelancerCompany: i.freelancerCompany,
    clientName: i.clientName,
    muxedAddress: muxedAddress(i.freelancerWallet, i.muxedId),
    ...amounts(i),
    ...paidAndDueB(i),
    dueDate: iso(i.dueDate),
    paidAt: iso(i.paidAt),
    transactionHash: i.transactionHash,
    createdAt: i.createdAt.toISOString(),
    lineItems: i.lineItems.map(lineItemB),
    payments: i.payments.map(receivedPaymentB),
  }),
  a: (i): FormA<typeof publicInvoice> => ({
    id: i.id,
    invoiceNumber: i.invoiceNumber,
    clientName: i.clientName,
    amount: formatForFormA(i.subtotal),
    currency: i.currency,
    totalAmount: formatForFormA(i.total),
    ...paidAndDueA(i),
    ...pricing(i),
    status: i.status,
    dueDate: iso(i.dueDate),
    items: i.lineItems.map(lineItemA),
    payments: i.payments.map(receivedPaymentA),
    createdAt: i.createdAt.toISOString(),
  }),
});

const pageOf = (p: InvoicePage): Omit<FormB<typeof invoicePage>, "invoices"> => ({
  total: p.total,
  totalExact: p.totalExact,
  limit: p.limit,
  offset: p.offset,
  hasMore: p.hasMore,
});

export const invoicePageSerializer = serializer(invoicePage, {
  b: (p: InvoicePage): FormB<typeof invoicePage> => ({
    invoices: p.invoices.map((i) => ({
      id: i.id,
      invoiceNumber: i.invoiceNumber,
      status: i.status,
      title: i.title,
      clientName: i.clientName,
      total: i.total,
      ...paidAndDueB(i),
      currency: i.currency,
      priceCurrency: i.priceCurrency,
      networkPassphrase: i.networkPassphrase,
      dueDate: iso(i.dueDate),
      createdAt: i.createdAt.toISOString(),
    })),
    ...pageOf(p),
  }),
  a: (p, { appUrl }): FormA<typeof invoicePage> => ({
    items: p.invoices.map((i) => ({
      id: i.id,
      invoiceNumber: i.invoiceNumber,
      clientName: i.clientName,
      amount: formatForFormA(i.subtotal),
      totalAmount: formatForFormA(i.total),
      ...paidAndDueA(i),
      currency: i.currency,
      priceCurrency: i.priceCurrency,
      status: i.status,
      dueDate: iso(i.dueDate),
      createdAt: i.createdAt.toISOString(),
      paymentLink: paymentPageUrl(appUrl, i.id),
    })),
    ...pageOf(p),
  }),
});

export const sentInvoiceSerializer = serializer(sentInvoice, {
  b: (i: InvoiceRow): FormB<typeof sentInvoice> => ({
    id: i.id,
    status: i.status,
    sentAt: iso(i.sentAt),
    updatedAt: i.updatedAt.toISOString(),
  }),
  a: (i, { appUrl }): FormA<typeof sentInvoice> => ({
    id: i.id,
    status: i.status,
    paymentLink: paymentPageUrl(appUrl, i.id),
    sentAt: iso(i.sentAt),
  }),
});

export const cancelledInvoiceSerializer = serializer(cancelledInvoice, {
  b: (i: InvoiceRow): FormB<typeof cancelledInvoice> => ({
    id: i.id,
    status: i.status,
    cancelledAt: iso(i.cancelledAt),
    updatedAt: i.updatedAt.toISOString(),
  }),
  a: (i): FormA<typeof cancelledInvoice> => ({
    id: i.id,
    status: i.status,
    cancelledAt: iso(i.cancelledAt),
  }),
});

export const deletedInvoiceSerializer = serializer(deletedInvoice, {
  b: (_: { id: string }): FormB<typeof deletedInvoice> => ({ success: true }),
  a: (v): FormA<typeof deletedInvoice> => ({ id: v.id, message: "Invoice deleted successfully" }),
});

const mapAsset = <T, U>(o: Record<Currency, T>, f: (v: T) => U): Record<Currency, U> => ({
  XLM: f(o.XLM),
  USDC: f(o.USDC),
  EURC: f(o.EURC),
});

const mapFigures = (f: InvoiceStats["byPriceCurrency"]["USD"]) => ({
  totalRevenue: formatForFormA(f.totalRevenue),
  revenueThisMonth: formatForFormA(f.revenueThisMonth),
  avgInvoiceValue: formatForFormA(f.avgInvoiceValue),
  pendingAmount: formatForFormA(f.pendingAmount),
});

const mapLinkFigures = (f: InvoiceStats["linkRevenue"]["byPriceCurrency"]["USD"]) => ({
  totalRevenue: formatForFormA(f.totalRevenue),
  revenueThisMonth: formatForFormA(f.revenueThisMonth),
});

export const statsSerializer = serializer(invoiceStats, {
  b: (s: InvoiceStats): FormB<typeof invoiceStats> => ({
    ...s,
    recentActivity: s.recentActivity.map((r) => ({ ...r, timestamp: r.timestamp.toISOString() })),
  }),
  a: (s): FormA<typeof invoiceStats> => ({
    totalInvoices: s.totalInvoices,
    paidInvoices: s.paidInvoices,
    pendingInvoices: s.pendingInvoices,
    totalRevenue: mapAsset(s.totalRevenue, formatForFormA),
    revenueThisMonth: mapAsset(s.revenueThisMonth, formatForFormA),
    avgInvoiceValue: mapAsset(s.avgInvoiceValue, formatForFormA),
    pendingAmount: mapAsset(s.pendingAmount, formatForFormA),
    byPriceCurrency: {
      USD: mapFigures(s.byPriceCurrency.USD),
      EUR: mapFigures(s.byPriceCurrency.EUR),
    },
    statusBreakdown: s.statusBreakdown,
    recentActivity: s.recentActivity.map((r) => ({
      invoiceId: r.invoiceId,
      invoiceNumber: r.invoiceNumber,
      action: r.action,
      amount: formatForFormA(r.amount),
      currency: r.currency,
      priceCurrency: r.priceCurrency,
      timestamp: r.timestamp.toISOString(),
    })),
    revenueByMonth: s.revenueByMonth.map((m) => ({
      month: m.month,
      revenue: mapAsset(m.revenue, formatForFormA),
    })),
    revenue: { ...s.revenue, amount: formatForFormA(s.revenue.amount) },
    linkRevenue: {
      payments: s.linkRevenue.payments,
      totalRevenue: mapAsset(s.linkRevenue.totalRevenue, formatForFormA),
      revenueThisMonth: mapAsset(s.linkRevenue.revenueThisMonth, formatForFormA),
      byPriceCurrency: {
        USD: mapLinkFigures(s.linkRevenue.byPriceCurrency.USD),
        EUR: mapLinkFigures(s.linkRevenue.byPriceCurrency.EUR),
      },
    },
  }),
});
