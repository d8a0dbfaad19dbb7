import { describe, expect, it } from "vitest";
import { LANGUAGES, t } from "@/lib/i18n";
import { flatPdfText } from "@/tests/helpers/pdf";
import { SAMPLE_SALES_QUOTE } from "@/tests/helpers/samples";
import { renderQuotePdf } from "./quote-pdf";

// The quote PDF in each language (docs/decisions.md, Quotes): the catalogue's words, the
// number, the lines and the total; never the client's email or the notes.
describe("the quote PDF", () => {
  for (const lang of LANGUAGES) {
    it(`renders in ${lang}`, async () => {
      const pdf = await renderQuotePdf(
        { ...SAMPLE_SALES_QUOTE, language: lang },
        { compress: false },
      );
      const text = await flatPdfText(new Uint8Array(pdf));
      expect(text).toContain(t(lang, "quote.title"));
      expect(text).toContain("QT-0001");
      expect(text).toContain("Website redesign");
      expect(text).toContain("Design");
      expect(text).toContain(t(lang, "quote.total"));
      expect(text).not.toContain("ada@example.com");
      expect(text).not.toContain("Thanks!");
    });
  }
});
