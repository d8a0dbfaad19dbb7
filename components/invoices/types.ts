/** Form B bodies of the invoice API, inferred from their schemas (lib/schemas/invoices.ts). */
export type {
  AuditLogBody as AuditLog,
  InvoiceBody as OwnerInvoice,
  InvoiceListItemBody as InvoiceListItem,
  InvoicePageBody as InvoicePage,
  LineItemBody as LineItem,
  PaymentBody as Payment,
} from "@/lib/schemas/invoices";
