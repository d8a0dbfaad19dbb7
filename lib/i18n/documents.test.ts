import { describe, expect, it } from "vitest";
import { renderInvoicePdf } from "@/lib/services/invoices/pdf-render";
import { pdfText } from "@/tests/helpers/pdf";
import { paidInvoice, richInvoice } from "./document-samples";
import { LANGUAGES } from "./languages";

describe("dump", () => {
  for (const lang of LANGUAGES) {
    it(lang, async () => {
      const pdf = await renderInvoicePdf(
        { ...richInvoice, language: lang },
        { paymentLink: "https://x.example/pay/1", compress: false },
      );
      console.log(lang, (await pdfText(new Uint8Array(pdf))).replace(/\n/g, " | "));
      expect(1).toBe(1);
    });
  }
});
