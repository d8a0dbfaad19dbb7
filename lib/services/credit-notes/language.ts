import { DEFAULT_LANGUAGE, isLanguage, type Language } from "@/lib/i18n";

/**
 * The language a credit note and its email are written in: the invoice's `language` when it
 * has one (docs/decisions.md, Languages), else English. The one place that reads it.
 */
export function creditNoteLanguage(invoice: object): Language {
  const lang = (invoice as { language?: unknown }).language;
  return isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
}
