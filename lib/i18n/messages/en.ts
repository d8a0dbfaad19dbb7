// The reference catalogue (lib/i18n/index.ts). Keys are grouped by document: `doc.*` shared by
// every document, `invoice.*`, `creditNote.*`, `email.*`, `checkout.*`. ICU MessageFormat:
// `{name}` placeholders, `{count, plural, one {...} other {...}}`.
const en = {
  "doc.invoice": "Invoice",
  "doc.creditNote": "Credit note",
  // E-invoices (lib/einvoice): the texts the XML adds.
  "einvoice.stellarPayment":
    "Payment on the Stellar network ({network}) in {asset}: send to account {recipient} with the text memo {memo}",
  "einvoice.assetIssuer": "{asset} issued by {issuer}",
  "einvoice.payLink": "Pay online: {url}",
  "einvoice.xlmAmount": "Amount to pay: {amount} XLM (1 XLM = {rate} {currency}, fixed on {date})",
  "einvoice.quotedAmount": "Payable in {asset} at the rate quoted when paying",
  "einvoice.taxExchange": "VAT in {currency} at 1 {unit} = {rate} {currency} ({source}, {date})",
  "einvoice.creditNoteFor": "Credit note for invoice {number} of {date}",
  "einvoice.creditSettlement": "Credited against invoice {number}",
  "einvoice.dueOnReceipt": "Payable on receipt",
  "einvoice.discount": "Discount",
} as const;

export type MessageKey = keyof typeof en;
export default en satisfies Record<string, string>;
