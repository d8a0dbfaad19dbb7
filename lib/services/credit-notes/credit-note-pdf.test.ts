import { describe, expect, it } from "vitest";
import { LANGUAGES, t } from "@/lib/i18n";
import { localizeAmount } from "@/lib/i18n/format";
import { flatPdfText } from "@/tests/helpers/pdf";
import { SAMPLE_CREDIT_NOTE, SAMPLE_PARTLY_PAID_INVOICE } from "@/tests/helpers/samples";
import { renderCreditNotePdf } from "./credit-note-pdf";

// The credit note PDF in each language (docs/decisions.md, Credit notes): every word from the
// catalogue, none missing, the figures and the invoice it corrects.
describe("the credit note PDF", () => {
  for (const lang of LANGUAGES) {
    it(`renders in ${lang}`, async () => {
      const invoice = { ...SAMPLE_PARTLY_PAID_INVOICE, language: lang };
      const pdf = await renderCreditNotePdf(SAMPLE_CREDIT_NOTE, invoice, { compress: false });
      const text = await flatPdfText(new Uint8Array(pdf));
      expect(text).toContain(t(lang, "creditNote.title"));
      expect(text).toContain("CN-0001");
      expect(text).toContain(SAMPLE_PARTLY_PAID_INVOICE.invoiceNumber);
      expect(text).toContain(t(lang, "creditNote.reason"));
      expect(text).toContain("One day not worked");
      expect(text).toContain(t(lang, "creditNote.total"));
      expect(text).toContain(
        t(lang, "creditNote.taxRow", {
          rate: "10",
          base: localizeAmount(`100.00 ${SAMPLE_CREDIT_NOTE.unit}`, lang),
        }),
      );
      // Amounts in the language's own format: "100,00 USDC" in German, French, Spanish, Portuguese.
      if (lang !== "en") expect(text).toContain(`100,00 ${SAMPLE_CREDIT_NOTE.unit}`);
      expect(text).not.toMatch(/creditNote\./);
    });
  }

  it("takes English when the invoice has no language", async () => {
    const pdf = await renderCreditNotePdf(SAMPLE_CREDIT_NOTE, SAMPLE_PARTLY_PAID_INVOICE);
    const text = await flatPdfText(new Uint8Array(pdf));
    expect(text).toContain("Credit note");
    expect(text).toContain(`Corrects invoice ${SAMPLE_PARTLY_PAID_INVOICE.invoiceNumber} of`);
  });
});
