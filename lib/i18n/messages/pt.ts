import type { MessageKey } from "./en";

const pt: Record<MessageKey, string> = {
  "doc.invoice": "Fatura",
  "doc.creditNote": "Nota de crédito",
  // ---- credit notes (lib/services/credit-notes) ----
  "creditNote.title": "Nota de crédito",
  "creditNote.issued": "Emitida em {date}",
  "creditNote.corrects": "Corrige a fatura {invoiceNumber} de {issueDate}",
  "creditNote.from": "DE",
  "creditNote.to": "PARA",
  "creditNote.reason": "Motivo",
  "creditNote.description": "DESCRIÇÃO",
  "creditNote.vat": "IVA",
  "creditNote.quantity": "QTD.",
  "creditNote.rate": "PREÇO ({unit})",
  "creditNote.amount": "VALOR ({unit})",
  "creditNote.subtotal": "Subtotal",
  "creditNote.discount": "Desconto",
  "creditNote.taxRow": "IVA {rate} % sobre {base}",
  "creditNote.exemptRow": "{category} ({code}) sobre {base}",
  "creditNote.totalTax": "Total IVA",
  "creditNote.total": "Total creditado",
  "creditNote.taxInCurrency": "IVA em {currency}",
  "creditNote.taxRateNote":
    "IVA em {currency} à taxa 1 {unit} = {rate} {currency}, fixada na emissão da fatura {invoiceNumber}.",
  "creditNote.refund": "Associada ao reembolso {refundId}.",
  "creditNote.emailSubject":
    "Nota de crédito {number} da fatura {invoiceNumber} de {sender}: {total}",
  "creditNote.emailGreeting": "Olá {name},",
  "creditNote.emailGreetingNoName": "Olá,",
  "creditNote.emailBody":
    "{sender} emitiu a nota de crédito {number} da fatura {invoiceNumber}. Segue em anexo em PDF.",
  "creditNote.emailCredited": "Creditado",
  "creditNote.emailInvoice": "Fatura",
  "creditNote.emailAmountDue": "Ainda em dívida na fatura",
};
export default pt;
