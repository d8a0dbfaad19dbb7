import type { AuditAction, InvoiceStatus } from "@/lib/domain/invoice-state";
import type { Currency } from "@/lib/domain/money";

/** Form B shapes of the invoice API (lib/serializers/invoices.ts), as the browser sees them. */

export type LineItem = {
  id: string;
  invoiceId: string;
  description: string;
  quantity: string;
  rate: string;
  amount: string;
};

export type Payment = {
  id: string;
  invoiceId: string;
  transactionHash: string;
  ledgerNumber: number;
  fromWallet: string;
  toWallet: string;
  amount: string;
  asset: string;
  status: "CONFIRMED" | "FAILED" | "REFUNDED";
  confirmedAt: string;
};

export type AuditLog = {
  id: string;
  invoiceId: string;
  action: AuditAction;
  actorWallet: string;
  changes: Record<string, unknown> | null;
  createdAt: string;
};

export type OwnerInvoice = {
  id: string;
  invoiceNumber: string;
  status: InvoiceStatus;
  freelancerWallet: string;
  freelancerName: string | null;
  freelancerEmail: string | null;
  freelancerCompany: string | null;
  clientName: string;
  clientEmail: string;
  clientCompany: string | null;
  clientAddress: string | null;
  clientWallet: string | null;
  title: string;
  description: string | null;
  notes: string | null;
  subtotal: string;
  taxRate: string;
  taxAmount: string;
  discount: string;
  total: string;
  currency: Currency;
  networkPassphrase: string;
  dueDate: string | null;
  sentAt: string | null;
  paidAt: string | null;
  cancelledAt: string | null;
  transactionHash: string | null;
  ledgerNumber: number | null;
  payerWallet: string | null;
  paymentLink: string;
  createdAt: string;
  updatedAt: string;
  lineItems: LineItem[];
  payments: Payment[];
  auditLogs: AuditLog[];
};

export type InvoiceListItem = {
  id: string;
  invoiceNumber: string;
  status: InvoiceStatus;
  title: string;
  clientName: string;
  total: string;
  currency: Currency;
  networkPassphrase: string;
  dueDate: string | null;
  createdAt: string;
};

export type InvoicePage = {
  invoices: InvoiceListItem[];
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
};
