import { paymentPageUrl } from "@/lib/config";
import { formatForFormA } from "@/lib/domain/money";
import type { Serializer } from "@/lib/http/forms";
import type { InvoiceStats } from "@/lib/services/invoices/invoice-stats";
import type { InvoicePage } from "@/lib/services/invoices/list-invoices";
import type {
  AuditRow,
  InvoiceRow,
  InvoiceWithItems,
  LineItemRow,
  OwnerInvoice,
  PaymentRow,
} from "@/lib/services/invoices/store";

/** Form A and Form B shapes of invoices (spec 2.1-2.3), one place for each. */
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const num = (s: string | null) => (s === null ? null : formatForFormA(s));

const lineItemB = (i: LineItemRow) => ({
  id: i.id,
  invoiceId: i.invoiceId,
  description: i.description,
  quantity: i.quantity,
  rate: i.rate,
  amount: i.amount,
});
const lineItemA = (i: LineItemRow) => ({
  id: i.id,
  description: i.description,
  quantity: formatForFormA(i.quantity),
  rate: formatForFormA(i.rate),
  amount: formatForFormA(i.amount),
});

export const paymentB = (p: PaymentRow) => ({
  id: p.id,
  invoiceId: p.invoiceId,
  transactionHash: p.transactionHash,
  ledgerNumber: p.ledgerNumber,
  fromWallet: p.fromWallet,
  toWallet: p.toWallet,
  amount: p.amount,
  asset: p.asset,
  status: p.status,
  confirmedAt: p.confirmedAt.toISOString(),
});
const paymentA = (p: PaymentRow) => ({
  id: p.id,
  transactionHash: p.transactionHash,
  amount: formatForFormA(p.amount),
  currency: p.asset,
  confirmedAt: p.confirmedAt.toISOString(),
});

const auditB = (a: AuditRow) => ({
  id: a.id,
  invoiceId: a.invoiceId,
  action: a.action,
  actorWallet: a.actorWallet,
  changes: a.changes,
  createdAt: a.createdAt.toISOString(),
});
const auditA = (a: AuditRow) => ({
  action: a.action,
  actorWallet: a.actorWallet,
  timestamp: a.createdAt.toISOString(),
  ...(a.changes ? { metadata: a.changes } : {}),
});

function invoiceB(i: InvoiceRow, appUrl: string) {
  return {
    id: i.id,
    invoiceNumber: i.invoiceNumber,
    status: i.status,
    freelancerWallet: i.freelancerWallet,
    freelancerName: i.freelancerName,
    freelancerEmail: i.freelancerEmail,
    freelancerCompany: i.freelancerCompany,
    clientName: i.clientName,
    clientEmail: i.clientEmail,
    clientCompany: i.clientCompany,
    clientAddress: i.clientAddress,
    clientWallet: i.clientWallet,
    title: i.title,
    description: i.description,
    notes: i.notes,
    subtotal: i.subtotal,
    taxRate: i.taxRate,
    taxAmount: i.taxAmount,
    discount: i.discount,
    total: i.total,
    currency: i.currency,
    networkPassphrase: i.networkPassphrase,
    dueDate: iso(i.dueDate),
    sentAt: iso(i.sentAt),
    paidAt: iso(i.paidAt),
    cancelledAt: iso(i.cancelledAt),
    transactionHash: i.transactionHash,
    ledgerNumber: i.ledgerNumber,
    payerWallet: i.payerWallet,
    paymentLink: paymentPageUrl(appUrl, i.id),
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}

function invoiceA(i: InvoiceRow, appUrl: string) {
  return {
    id: i.id,
    invoiceNumber: i.invoiceNumber,
    status: i.status,
    freelancerWallet: i.freelancerWallet,
    freelancerName: i.freelancerName,
    freelancerEmail: i.freelancerEmail,
    freelancerCompany: i.freelancerCompany,
    clientName: i.clientName,
    clientEmail: i.clientEmail,
    clientCompany: i.clientCompany,
    clientAddress: i.clientAddress,
    clientWallet: i.clientWallet,
    title: i.title,
    description: i.description,
    notes: i.notes,
    amount: formatForFormA(i.subtotal),
    taxRate: num(i.taxRate),
    taxAmount: num(i.taxAmount),
    discount: num(i.discount),
    totalAmount: formatForFormA(i.total),
    currency: i.currency,
    networkPassphrase: i.networkPassphrase,
    dueDate: iso(i.dueDate),
    sentAt: iso(i.sentAt),
    paidAt: iso(i.paidAt),
    transactionHash: i.transactionHash,
    ledgerNumber: i.ledgerNumber,
    payerWallet: i.payerWallet,
    paymentLink: paymentPageUrl(appUrl, i.id),
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}

export function ownerInvoiceSerializer(appUrl: string): Serializer<OwnerInvoice> {
  return {
    b: (i) => ({
      ...invoiceB(i, appUrl),
      lineItems: i.lineItems.map(lineItemB),
      payments: i.payments.map(paymentB),
      auditLogs: i.auditLogs.map(auditB),
    }),
    a: (i) => ({
      ...invoiceA(i, appUrl),
      items: i.lineItems.map(lineItemA),
      payments: i.payments.map(paymentA),
      auditLog: i.auditLogs.map(auditA),
    }),
  };
}

/** The payer's view: who is paid and what for; never emails, addresses, notes or audit. */
export const publicInvoiceSerializer: Serializer<InvoiceWithItems> = {
  b: (i) => ({
    id: i.id,
    invoiceNumber: i.invoiceNumber,
    status: i.status,
    title: i.title,
    description: i.description,
    freelancerWallet: i.freelancerWallet,
    freelancerName: i.freelancerName,
    freelancerCompany: i.freelancerCompany,
    clientName: i.clientName,
    subtotal: i.subtotal,
    taxRate: i.taxRate,
    taxAmount: i.taxAmount,
    discount: i.discount,
    total: i.total,
    currency: i.currency,
    networkPassphrase: i.networkPassphrase,
    dueDate: iso(i.dueDate),
    paidAt: iso(i.paidAt),
    transactionHash: i.transactionHash,
    createdAt: i.createdAt.toISOString(),
    lineItems: i.lineItems.map(lineItemB),
  }),
  a: (i) => ({
    id: i.id,
    invoiceNumber: i.invoiceNumber,
    clientName: i.clientName,
    amount: formatForFormA(i.subtotal),
    currency: i.currency,
    totalAmount: formatForFormA(i.total),
    status: i.status,
    dueDate: iso(i.dueDate),
    items: i.lineItems.map(lineItemA),
    createdAt: i.createdAt.toISOString(),
  }),
};

export function invoicePageSerializer(appUrl: string): Serializer<InvoicePage> {
  return {
    b: (p) => ({
      invoices: p.invoices.map((i) => ({
        id: i.id,
        invoiceNumber: i.invoiceNumber,
        status: i.status,
        title: i.title,
        clientName: i.clientName,
        total: i.total,
        currency: i.currency,
        networkPassphrase: i.networkPassphrase,
        dueDate: iso(i.dueDate),
        createdAt: i.createdAt.toISOString(),
      })),
      total: p.total,
      limit: p.limit,
      offset: p.offset,
      hasMore: p.hasMore,
    }),
    a: (p) => ({
      items: p.invoices.map((i) => ({
        id: i.id,
        invoiceNumber: i.invoiceNumber,
        clientName: i.clientName,
        amount: formatForFormA(i.subtotal),
        totalAmount: formatForFormA(i.total),
        currency: i.currency,
        status: i.status,
        dueDate: iso(i.dueDate),
        createdAt: i.createdAt.toISOString(),
        paymentLink: paymentPageUrl(appUrl, i.id),
      })),
      total: p.total,
      limit: p.limit,
      offset: p.offset,
      hasMore: p.hasMore,
    }),
  };
}

export function sentInvoiceSerializer(appUrl: string): Serializer<InvoiceRow> {
  return {
    b: (i) => ({
      id: i.id,
      status: i.status,
      sentAt: iso(i.sentAt),
      updatedAt: i.updatedAt.toISOString(),
    }),
    a: (i) => ({
      id: i.id,
      status: i.status,
      paymentLink: paymentPageUrl(appUrl, i.id),
      sentAt: iso(i.sentAt),
    }),
  };
}

export const cancelledInvoiceSerializer: Serializer<InvoiceRow> = {
  b: (i) => ({
    id: i.id,
    status: i.status,
    cancelledAt: iso(i.cancelledAt),
    updatedAt: i.updatedAt.toISOString(),
  }),
  a: (i) => ({ id: i.id, status: i.status, cancelledAt: iso(i.cancelledAt) }),
};

export const deletedInvoiceSerializer: Serializer<{ id: string }> = {
  b: () => ({ success: true }),
  a: (v) => ({ id: v.id, message: "Invoice deleted successfully" }),
};

const mapAsset = <T, U>(o: Record<string, T>, f: (v: T) => U) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));

const statsB = (s: InvoiceStats) => ({
  ...s,
  recentActivity: s.recentActivity.map((r) => ({ ...r, timestamp: r.timestamp.toISOString() })),
});
/** GET /api/invoices/stats in Form B, as the dashboard reads it. */
export type InvoiceStatsBody = ReturnType<typeof statsB>;

export const statsSerializer: Serializer<InvoiceStats> = {
  b: statsB,
  a: (s) => ({
    totalInvoices: s.totalInvoices,
    paidInvoices: s.paidInvoices,
    pendingInvoices: s.pendingInvoices,
    totalRevenue: mapAsset(s.totalRevenue, formatForFormA),
    revenueThisMonth: mapAsset(s.revenueThisMonth, formatForFormA),
    avgInvoiceValue: mapAsset(s.avgInvoiceValue, formatForFormA),
    pendingAmount: mapAsset(s.pendingAmount, formatForFormA),
    statusBreakdown: s.statusBreakdown,
    recentActivity: s.recentActivity.map((r) => ({
      invoiceId: r.invoiceId,
      invoiceNumber: r.invoiceNumber,
      action: r.action,
      amount: formatForFormA(r.amount),
      currency: r.currency,
      timestamp: r.timestamp.toISOString(),
    })),
    revenueByMonth: s.revenueByMonth.map((m) => ({
      month: m.month,
      revenue: mapAsset(m.revenue, formatForFormA),
    })),
  }),
};
