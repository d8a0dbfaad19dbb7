// The documents' languages as plain constants (no formatter, no zod), so the database schema,
// the PDF worker and the browser take them cheaply. lib/i18n/index.ts re-exports them.

export const LANGUAGES = ["en", "de", "fr", "es", "pt"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** The language's own name, for pickers: "Deutsch". */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  pt: "Português",
};

/** Whether `value` is one of the documents' languages. */
export const isLanguage = (value: unknown): value is Language =>
  typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);

/** The message when a body names another language (400 naming the field). */
export const languageMessage = (field: string) => `${field} must be one of ${LANGUAGES.join(", ")}`;
