import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { CATALOGUES, LANGUAGES, t } from "./index";

// Every catalogue has exactly the reference (English) keys, every message parses as ICU
// MessageFormat, and uses the same placeholders as the English one.
const placeholders = (message: string) =>
  [...message.matchAll(/\{\s*([A-Za-z0-9_]+)\s*(?:,|\})/g)].map((m) => m[1]).sort();

describe("message catalogues", () => {
  const reference = CATALOGUES.en;
  for (const lang of LANGUAGES) {
    it(`${lang} has every key of the English catalogue and no other`, () => {
      expect(Object.keys(CATALOGUES[lang]).sort()).toEqual(Object.keys(reference).sort());
      for (const [key, message] of Object.entries(CATALOGUES[lang])) {
        expect(message.trim(), `${lang} ${key} is empty`).not.toBe("");
      }
    });
    it(`${lang} messages parse and use the English placeholders`, () => {
      for (const [key, message] of Object.entries(CATALOGUES[lang])) {
        expect(() => new IntlMessageFormat(message, lang), `${lang} ${key}`).not.toThrow();
        expect([...new Set(placeholders(message))], `${lang} ${key}`).toEqual([
          ...new Set(placeholders(reference[key as keyof typeof reference])),
        ]);
      }
    });
  }
  it("formats in the asked language", () => {
    expect(t("de", "doc.invoice")).toBe("Rechnung");
    expect(t("fr", "doc.creditNote")).toBe("Avoir");
  });
});
