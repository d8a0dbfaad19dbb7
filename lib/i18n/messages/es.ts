import type { MessageKey } from "./en";

const es: Record<MessageKey, string> = {
  "doc.invoice": "Factura",
  "doc.creditNote": "Factura rectificativa",
};
export default es;
