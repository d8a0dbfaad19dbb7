import type { MessageKey } from "./en";

const de: Record<MessageKey, string> = {
  "doc.invoice": "Rechnung",
  "doc.creditNote": "Gutschrift",
};
export default de;
