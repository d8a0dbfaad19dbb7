import type { MessageKey } from "./en";

const fr: Record<MessageKey, string> = {
  "doc.invoice": "Facture",
  "doc.creditNote": "Avoir",
  // E-invoices (lib/einvoice): the texts the XML adds.
  "einvoice.stellarPayment":
    "Paiement sur le réseau Stellar ({network}) en {asset} : envoyer au compte {recipient} avec le mémo texte {memo}",
  "einvoice.assetIssuer": "{asset} émis par {issuer}",
  "einvoice.payLink": "Payer en ligne : {url}",
  "einvoice.xlmAmount":
    "Montant à payer : {amount} XLM (1 XLM = {rate} {currency}, fixé le {date})",
  "einvoice.quotedAmount": "Payable en {asset} au cours proposé lors du paiement",
  "einvoice.taxExchange":
    "TVA en {currency} au cours de 1 {unit} = {rate} {currency} ({source}, {date})",
  "einvoice.creditNoteFor": "Avoir sur la facture {number} du {date}",
  "einvoice.creditSettlement": "Imputé sur la facture {number}",
  "einvoice.dueOnReceipt": "Payable à réception",
  "einvoice.discount": "Remise",
};
export default fr;
