import { IntlMessageFormat } from "intl-messageformat";
import { TAX_SCHEMES, type TaxScheme } from "@/lib/domain/address";
import { PAYMENT_METHOD_LABELS, paymentMethodLabel } from "@/lib/format";
import { z } from "@/lib/zod";
import { LANGUAGES, type Language, languageMessage } from "./languages";
import de from "./messages/de";
import en, { type MessageKey } from "./messages/en";
import es from "./messages/es";
import fr from "./messages/fr";
import pt from "./messages/pt";

// The documents' languages (docs/decisions.md, Languages): one catalogue per language in
// ./messages, ICU MessageFormat strings formatted with intl-messageformat (formatjs), dates
// and numbers with the platform's Intl. English is the reference catalogue: every other one
// must have exactly its keys (lib/i18n/messages.test.ts).

export {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGE_NAMES,
  LANGUAGES,
  type Language,
  languageMessage,
} from "./languages";

export const languageSchema = z
  .enum(LANGUAGES, { error: languageMessage("language") })
  .describe("A document language: en, de, fr, es or pt (ISO 639-1).");

export const CATALOGUES: Record<Language, Record<MessageKey, string>> = { en, de, fr, es, pt };

export type { MessageKey };
export type MessageValues = Record<string, string | number>;

const compiled = new Map<string, IntlMessageFormat>();

/** The message `key` in `lang`, its `{placeholders}` filled from `values`. */
export function t(lang: Language, key: MessageKey, values?: MessageValues): string {
  const id = `${lang}:${key}`;
  let format = compiled.get(id);
  if (!format) {
    format = new IntlMessageFormat(CATALOGUES[lang][key], lang);
    compiled.set(id, format);
  }
  return String(format.format(values));
}

/** A translator bound to one language: `const tr = translator("de"); tr("invoice.title")`. */
export const translator = (lang: Language) => (key: MessageKey, values?: MessageValues) =>
  t(lang, key, values);

/** The tax schemes' names in `lang` ("USt-IdNr." for an EU VAT number in German), for taxIdLine. */
export const schemeLabels = (lang: Language): Record<TaxScheme, string> =>
  Object.fromEntries(
    TAX_SCHEMES.map((scheme) => [scheme, t(lang, `tax.scheme.${scheme}` as MessageKey)]),
  ) as Record<TaxScheme, string>;

/** How a reminder speaks of the due date in `lang`: en "is due in 3 days", "is due today", "is 7 days overdue". */
export function reminderWhenIn(lang: Language, offset: number): string {
  if (offset < 0) return t(lang, "email.reminder.dueIn", { days: -offset });
  if (offset === 0) return t(lang, "email.reminder.dueToday");
  return t(lang, "email.reminder.overdue", { days: offset });
}

/** A payment received outside Stellar as a document in `lang` says it: "Banküberweisung · Ref. 114". */
export function methodLabel(lang: Language, method: string, reference?: string | null): string {
  if (lang === "en") return paymentMethodLabel(method, reference);
  const name = ["bank_transfer", "cash", "other"].includes(method)
    ? t(lang, `doc.method.${method}` as MessageKey)
    : (PAYMENT_METHOD_LABELS[method] ?? method);
  return reference ? t(lang, "doc.method.ref", { method: name, reference }) : name;
}

/** One language's messages whose keys start with `prefix`: what a client component is given. */
export function messagesFor(lang: Language, prefix: string): Partial<Record<MessageKey, string>> {
  return Object.fromEntries(
    Object.entries(CATALOGUES[lang]).filter(([key]) => key.startsWith(prefix)),
  ) as Partial<Record<MessageKey, string>>;
}
