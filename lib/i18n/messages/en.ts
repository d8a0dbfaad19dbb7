// The reference catalogue (lib/i18n/index.ts). Keys are grouped by document: `doc.*` shared by
// every document, `invoice.*`, `creditNote.*`, `email.*`, `checkout.*`. ICU MessageFormat:
// `{name}` placeholders, `{count, plural, one {...} other {...}}`.
const en = {
  "doc.invoice": "Invoice",
  "doc.creditNote": "Credit note",
  // ---- credit notes (lib/services/credit-notes) ----
  "creditNote.title": "Credit note",
  "creditNote.issued": "Issued {date}",
  "creditNote.corrects": "Corrects invoice {invoiceNumber} of {issueDate}",
  "creditNote.from": "FROM",
  "creditNote.to": "TO",
  "creditNote.reason": "Reason",
  "creditNote.description": "DESCRIPTION",
  "creditNote.vat": "VAT",
  "creditNote.quantity": "QTY",
  "creditNote.rate": "RATE ({unit})",
  "creditNote.amount": "AMOUNT ({unit})",
  "creditNote.subtotal": "Subtotal",
  "creditNote.discount": "Discount",
  "creditNote.taxRow": "VAT {rate}% of {base}",
  "creditNote.exemptRow": "{category} ({code}) on {base}",
  "creditNote.totalTax": "Total VAT",
  "creditNote.total": "Total credited",
  "creditNote.taxInCurrency": "VAT in {currency}",
  "creditNote.taxRateNote":
    "VAT in {currency} at 1 {unit} = {rate} {currency}, the rate fixed when invoice {invoiceNumber} was issued.",
  "creditNote.refund": "Goes with refund {refundId}.",
  "creditNote.emailSubject":
    "Credit note {number} for invoice {invoiceNumber} from {sender}: {total}",
  "creditNote.emailGreeting": "Hello {name},",
  "creditNote.emailGreetingNoName": "Hello,",
  "creditNote.emailBody":
    "{sender} issued credit note {number} for invoice {invoiceNumber}. It is attached as a PDF.",
  "creditNote.emailCredited": "Credited",
  "creditNote.emailInvoice": "Invoice",
  "creditNote.emailAmountDue": "Still due on the invoice",
} as const;

export type MessageKey = keyof typeof en;
export default en satisfies Record<string, string>;
