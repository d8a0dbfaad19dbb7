import { describe, expect, it } from "vitest";
import { fill } from "./fill";
import { CATALOGUES, LANGUAGES, type MessageKey, messagesFor, t } from "./index";

// The checkout's client components fill their messages without the ICU formatter
// (lib/i18n/fill.ts): for every `checkout.*` message in every language the words are exactly
// what `t` writes, so no message there may use more than plain `{name}` arguments.
describe("fill, the checkout's client-side messages", () => {
  for (const lang of LANGUAGES) {
    it(`${lang}: every checkout message reads as t writes it`, () => {
      const messages = messagesFor(lang, "checkout.");
      const keys = Object.keys(messages) as MessageKey[];
      expect(keys.length).toBeGreaterThan(20);
      for (const key of keys) {
        const names = [...CATALOGUES.en[key].matchAll(/\{\s*([A-Za-z0-9_]+)/g)].map((m) => m[1]);
        const values = Object.fromEntries(names.map((n, i) => [n, `«${n}${i}»`]));
        expect(fill(messages, key, values), `${lang} ${key}`).toBe(t(lang, key, values));
      }
    });
  }
  it("gives only the asked block", () => {
    const keys = Object.keys(messagesFor("de", "checkout."));
    expect(keys.every((k) => k.startsWith("checkout."))).toBe(true);
    expect(keys).not.toContain("pdf.heading");
  });
});
