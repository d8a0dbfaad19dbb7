import type { MessageKey } from "./en";

const de: Record<MessageKey, string> = {
  "doc.invoice": "Rechnung",
  "doc.creditNote": "Gutschrift",
  // E-invoices (lib/einvoice): the texts the XML adds.
  "einvoice.stellarPayment":
    "Zahlung im Stellar-Netzwerk ({network}) in {asset}: an das Konto {recipient} mit dem Text-Memo {memo}",
  "einvoice.assetIssuer": "{asset}, ausgegeben von {issuer}",
  "einvoice.payLink": "Online bezahlen: {url}",
  "einvoice.xlmAmount":
    "Zu zahlender Betrag: {amount} XLM (1 XLM = {rate} {currency}, festgelegt am {date})",
  "einvoice.quotedAmount": "Zahlbar in {asset} zum beim Bezahlen angebotenen Kurs",
  "einvoice.taxExchange":
    "USt. in {currency} zum Kurs 1 {unit} = {rate} {currency} ({source}, {date})",
  "einvoice.creditNoteFor": "Gutschrift zur Rechnung {number} vom {date}",
  "einvoice.creditSettlement": "Verrechnet mit der Rechnung {number}",
  "einvoice.dueOnReceipt": "Zahlbar sofort nach Erhalt",
  "einvoice.discount": "Rabatt",
};
export default de;
