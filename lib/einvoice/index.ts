// E-invoices (docs/decisions.md, E-invoices): the CII XML of an invoice or a credit note, and
// what a document lacks to become one. Pure: no database, no configuration.
export { documentAmounts, invoiceCurrencyOf } from "./amounts";
export { buildCii, EInvoiceError, GUIDELINE_IDS } from "./cii";
export {
  type CreditNoteFigures,
  creditNoteInputOf,
  type EInvoiceSeller,
  type EInvoiceSource,
  eInvoiceInputOf,
} from "./from-invoice";
export { eInvoiceProblems } from "./problems";
export * from "./types";
