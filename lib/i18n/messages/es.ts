import type { MessageKey } from "./en";

const es: Record<MessageKey, string> = {
  "doc.invoice": "Factura",
  "doc.creditNote": "Factura rectificativa",
  // ---- credit notes (lib/services/credit-notes) ----
  "creditNote.title": "Factura rectificativa",
  "creditNote.issued": "Emitida el {date}",
  "creditNote.corrects": "Rectifica la factura {invoiceNumber} del {issueDate}",
  "creditNote.from": "DE",
  "creditNote.to": "PARA",
  "creditNote.reason": "Motivo",
  "creditNote.description": "DESCRIPCIÓN",
  "creditNote.vat": "IVA",
  "creditNote.quantity": "CANT.",
  "creditNote.rate": "PRECIO ({unit})",
  "creditNote.amount": "IMPORTE ({unit})",
  "creditNote.subtotal": "Subtotal",
  "creditNote.discount": "Descuento",
  "creditNote.taxRow": "IVA {rate} % sobre {base}",
  "creditNote.exemptRow": "{category} ({code}) sobre {base}",
  "creditNote.totalTax": "Total IVA",
  "creditNote.total": "Total abonado",
  "creditNote.taxInCurrency": "IVA en {currency}",
  "creditNote.taxRateNote":
    "IVA en {currency} al tipo 1 {unit} = {rate} {currency}, fijado al emitir la factura {invoiceNumber}.",
  "creditNote.refund": "Asociada al reembolso {refundId}.",
  "creditNote.emailSubject":
    "Factura rectificativa {number} de la factura {invoiceNumber} de {sender}: {total}",
  "creditNote.emailGreeting": "Hola {name}:",
  "creditNote.emailGreetingNoName": "Hola:",
  "creditNote.emailBody":
    "{sender} ha emitido la factura rectificativa {number} de la factura {invoiceNumber}. Se adjunta en PDF.",
  "creditNote.emailCredited": "Abonado",
  "creditNote.emailInvoice": "Factura",
  "creditNote.emailAmountDue": "Pendiente en la factura",
};
export default es;
