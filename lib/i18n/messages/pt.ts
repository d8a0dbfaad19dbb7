import type { MessageKey } from "./en";

const pt: Record<MessageKey, string> = {
  "doc.invoice": "Fatura",
  "doc.creditNote": "Nota de crédito",
  // E-invoices (lib/einvoice): the texts the XML adds.
  "einvoice.stellarPayment":
    "Pagamento na rede Stellar ({network}) em {asset}: enviar para a conta {recipient} com o memo de texto {memo}",
  "einvoice.assetIssuer": "{asset} emitido por {issuer}",
  "einvoice.payLink": "Pagar online: {url}",
  "einvoice.xlmAmount":
    "Montante a pagar: {amount} XLM (1 XLM = {rate} {currency}, fixado em {date})",
  "einvoice.quotedAmount": "Pagável em {asset} à taxa cotada no momento do pagamento",
  "einvoice.taxExchange":
    "IVA em {currency} à taxa 1 {unit} = {rate} {currency} ({source}, {date})",
  "einvoice.creditNoteFor": "Nota de crédito da fatura {number} de {date}",
  "einvoice.creditSettlement": "Compensado com a fatura {number}",
  "einvoice.dueOnReceipt": "Pagável na receção",
  "einvoice.discount": "Desconto",
};
export default pt;
