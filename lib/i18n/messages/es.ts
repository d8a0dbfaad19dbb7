import type { MessageKey } from "./en";

const es: Record<MessageKey, string> = {
  "doc.invoice": "Factura",
  "doc.creditNote": "Factura rectificativa",
  // E-invoices (lib/einvoice): the texts the XML adds.
  "einvoice.stellarPayment":
    "Pago en la red Stellar ({network}) en {asset}: enviar a la cuenta {recipient} con el memo de texto {memo}",
  "einvoice.assetIssuer": "{asset} emitido por {issuer}",
  "einvoice.payLink": "Pagar en línea: {url}",
  "einvoice.xlmAmount":
    "Importe a pagar: {amount} XLM (1 XLM = {rate} {currency}, fijado el {date})",
  "einvoice.quotedAmount": "Pagadero en {asset} al tipo ofrecido al pagar",
  "einvoice.taxExchange":
    "IVA en {currency} al tipo 1 {unit} = {rate} {currency} ({source}, {date})",
  "einvoice.creditNoteFor": "Factura rectificativa de la factura {number} del {date}",
  "einvoice.creditSettlement": "Compensado con la factura {number}",
  "einvoice.dueOnReceipt": "Pagadero a la recepción",
  "einvoice.discount": "Descuento",
};
export default es;
