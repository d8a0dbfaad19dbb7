import type { MessageKey } from "./en";

const fr: Record<MessageKey, string> = {
  "doc.invoice": "Facture",
  "doc.creditNote": "Avoir",
};
export default fr;
