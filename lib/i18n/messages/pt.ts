import type { MessageKey } from "./en";

const pt: Record<MessageKey, string> = {
  "doc.invoice": "Fatura",
  "doc.creditNote": "Nota de crédito",
};
export default pt;
