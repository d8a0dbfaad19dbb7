import { LANGUAGE_NAMES, LANGUAGES } from "@/lib/i18n/languages";

/**
 * The documents' languages as a form offers them (docs/decisions.md, Languages); the first
 * option, "", leaves the choice to the defaults (`none` says which).
 */
export function LanguageOptions({ none }: { none: string }) {
  return (
    <>
      <option value="">{none}</option>
      {LANGUAGES.map((l) => (
        <option key={l} value={l}>
          {LANGUAGE_NAMES[l]}
        </option>
      ))}
    </>
  );
}
