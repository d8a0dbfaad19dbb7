import type { Language } from "./languages";

// Numbers and dates in a document's language (docs/decisions.md, Languages), with the
// platform's Intl. English documents keep the service's own formatting (lib/format.ts) as
// before, byte for byte; the other languages take an English-formatted amount and write the
// same digits with their locale's separators: Intl.NumberFormat formats a decimal string
// exactly (no float), with as many decimals as the English text shows.

/** The locale each language's documents are written in (EU usage: pt is pt-PT). */
export const LOCALES: Record<Language, string> = {
  en: "en-GB",
  de: "de-DE",
  fr: "fr-FR",
  es: "es-ES",
  pt: "pt-PT",
};

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(lang: Language, decimals: number): Intl.NumberFormat {
  const id = `${lang}:${decimals}`;
  let f = numberFormats.get(id);
  if (!f) {
    f = new Intl.NumberFormat(LOCALES[lang], {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    numberFormats.set(id, f);
  }
  return f;
}

const ENGLISH_NUMBER = /^(-?)(\d{1,3}(?:,\d{3})*|\d+)(?:\.(\d+))?$/;

/**
 * An English-written number ("1,234,567.1234567", "-12.50", "1228") in `lang`'s format, the
 * same digits: de "1.234.567,1234567", fr "1 234 567,1234567". English and anything that is
 * not a plain number come back as given.
 */
export function localizeNumber(english: string, lang: Language): string {
  if (lang === "en") return english;
  const match = ENGLISH_NUMBER.exec(english);
  if (!match) return english;
  const [, sign, whole, fraction = ""] = match;
  const plain = `${sign}${whole.replace(/,/g, "")}${fraction ? `.${fraction}` : ""}`;
  // A string argument is formatted exactly (ECMA-402 NumberFormat v3): never a float. French
  // groups with a narrow no-break space (U+202F), which the PDF's font lacks: a no-break space.
  return numberFormat(lang, fraction.length)
    .format(plain as unknown as number)
    .replace(/\u202f/g, "\u00a0");
}

/** A decimal string ("1234567.1234567") in `lang`'s format, every decimal kept. */
export const formatDecimal = (value: string, lang: Language): string =>
  localizeNumber(
    value.replace(/^(-?)(\d+)/, (_, s: string, d: string) =>
      lang === "en" ? `${s}${d.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}` : `${s}${d}`,
    ),
    lang,
  );

const AMOUNT_TEXT = /^(-?[\d,]+(?:\.\d+)?)(\s.*)?$/;

/**
 * An amount as lib/format.ts writes it ("1,228.50 EUR", "-30.00 XLM", "1,050.00") in `lang`:
 * de "1.228,50 EUR". The unit stays where it is; "—" and other text come back as given.
 */
export function localizeAmount(text: string, lang: Language): string {
  if (lang === "en") return text;
  const match = AMOUNT_TEXT.exec(text);
  if (!match) return text;
  return `${localizeNumber(match[1], lang)}${match[2] ?? ""}`;
}

/** A percentage rate ("19", "7.5") in `lang`'s format: de "7,5". */
export const localizePercent = (rate: string, lang: Language) => localizeNumber(rate, lang);

const DAY_OPTIONS = { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" } as const;
const dayFormats = new Map<Language, Intl.DateTimeFormat>();

/**
 * A UTC calendar day in `lang`'s words: en "27 Nov 2026", de "27. Nov. 2026", fr "27 nov. 2026",
 * es "27 nov 2026", pt "27/11/2026".
 */
export function formatDay(d: Date, lang: Language): string {
  let f = dayFormats.get(lang);
  if (!f) {
    f = new Intl.DateTimeFormat(LOCALES[lang], DAY_OPTIONS);
    dayFormats.set(lang, f);
  }
  return f.format(d);
}

/** A UTC moment with its time: de "27. Nov. 2026, 14:05 UTC". */
export function formatMoment(d: Date, lang: Language): string {
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `${formatDay(d, lang)}, ${hh}:${mm} UTC`;
}

/**
 * An email's day and moment in `lang`: English keeps the checkout's hand-written forms
 * (lib/format.ts formatUtcDate, formatUtcDateTime), the others take Intl's.
 */
export const emailDay = (
  value: string | Date,
  lang: Language,
  english: (v: string | Date) => string,
) =>
  lang === "en"
    ? english(value)
    : formatDay(typeof value === "string" ? new Date(value) : value, lang);
export const emailMoment = (
  value: string | Date,
  lang: Language,
  english: (v: string | Date) => string,
) =>
  lang === "en"
    ? english(value)
    : formatMoment(typeof value === "string" ? new Date(value) : value, lang);
