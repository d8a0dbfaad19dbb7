// The reference catalogue (lib/i18n/index.ts). Keys are grouped by document: `doc.*` shared by
// every document, `invoice.*`, `creditNote.*`, `email.*`, `checkout.*`. ICU MessageFormat:
// `{name}` placeholders, `{count, plural, one {...} other {...}}`.
const en = {
  "doc.invoice": "Invoice",
  "doc.creditNote": "Credit note",
} as const;

export type MessageKey = keyof typeof en;
export default en satisfies Record<string, string>;
