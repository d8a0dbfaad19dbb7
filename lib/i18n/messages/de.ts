import type { MessageKey } from "./en";

const de: Record<MessageKey, string> = {
  "doc.invoice": "Rechnung",
  "doc.creditNote": "Gutschrift",
  // ---- credit notes (lib/services/credit-notes) ----
  "creditNote.title": "Gutschrift",
  "creditNote.issued": "Ausgestellt am {date}",
  "creditNote.corrects": "Korrigiert Rechnung {invoiceNumber} vom {issueDate}",
  "creditNote.from": "VON",
  "creditNote.to": "AN",
  "creditNote.reason": "Grund",
  "creditNote.description": "BESCHREIBUNG",
  "creditNote.vat": "USt.",
  "creditNote.quantity": "MENGE",
  "creditNote.rate": "PREIS ({unit})",
  "creditNote.amount": "BETRAG ({unit})",
  "creditNote.subtotal": "Zwischensumme",
  "creditNote.discount": "Rabatt",
  "creditNote.taxRow": "USt. {rate} % auf {base}",
  "creditNote.exemptRow": "{category} ({code}) auf {base}",
  "creditNote.totalTax": "USt. gesamt",
  "creditNote.total": "Gutgeschrieben gesamt",
  "creditNote.taxInCurrency": "USt. in {currency}",
  "creditNote.taxRateNote":
    "USt. in {currency} zum Kurs 1 {unit} = {rate} {currency}, festgelegt bei Ausstellung der Rechnung {invoiceNumber}.",
  "creditNote.refund": "Zur Rückerstattung {refundId}.",
  "creditNote.emailSubject":
    "Gutschrift {number} zu Rechnung {invoiceNumber} von {sender}: {total}",
  "creditNote.emailGreeting": "Hallo {name},",
  "creditNote.emailGreetingNoName": "Hallo,",
  "creditNote.emailBody":
    "{sender} hat die Gutschrift {number} zu Rechnung {invoiceNumber} ausgestellt. Sie ist als PDF angehängt.",
  "creditNote.emailCredited": "Gutgeschrieben",
  "creditNote.emailInvoice": "Rechnung",
  "creditNote.emailAmountDue": "Noch offen auf der Rechnung",
};
export default de;
