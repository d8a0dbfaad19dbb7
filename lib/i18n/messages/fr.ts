import type { MessageKey } from "./en";

const fr: Record<MessageKey, string> = {
  "doc.invoice": "Facture",
  "doc.creditNote": "Avoir",
  // ---- credit notes (lib/services/credit-notes) ----
  "creditNote.title": "Avoir",
  "creditNote.issued": "Émis le {date}",
  "creditNote.corrects": "Rectifie la facture {invoiceNumber} du {issueDate}",
  "creditNote.from": "DE",
  "creditNote.to": "À",
  "creditNote.reason": "Motif",
  "creditNote.description": "DÉSIGNATION",
  "creditNote.vat": "TVA",
  "creditNote.quantity": "QTÉ",
  "creditNote.rate": "PRIX ({unit})",
  "creditNote.amount": "MONTANT ({unit})",
  "creditNote.subtotal": "Sous-total",
  "creditNote.discount": "Remise",
  "creditNote.taxRow": "TVA {rate} % sur {base}",
  "creditNote.exemptRow": "{category} ({code}) sur {base}",
  "creditNote.totalTax": "Total TVA",
  "creditNote.total": "Total crédité",
  "creditNote.taxInCurrency": "TVA en {currency}",
  "creditNote.taxRateNote":
    "TVA en {currency} au taux 1 {unit} = {rate} {currency}, fixé à l’émission de la facture {invoiceNumber}.",
  "creditNote.refund": "Lié au remboursement {refundId}.",
  "creditNote.emailSubject": "Avoir {number} sur la facture {invoiceNumber} de {sender} : {total}",
  "creditNote.emailGreeting": "Bonjour {name},",
  "creditNote.emailGreetingNoName": "Bonjour,",
  "creditNote.emailBody":
    "{sender} a émis l’avoir {number} sur la facture {invoiceNumber}. Il est joint en PDF.",
  "creditNote.emailCredited": "Crédité",
  "creditNote.emailInvoice": "Facture",
  "creditNote.emailAmountDue": "Reste dû sur la facture",
};
export default fr;
