import { describe, expect, it } from "vitest";
import { buildStatement } from "@/lib/domain/statement";
import { LANGUAGES, t } from "@/lib/i18n";
import type { ClientRow } from "@/lib/services/clients/upsert-client";
import { renderCreditNotePdf } from "@/lib/services/credit-notes/credit-note-pdf";
import { renderInvoicePdf } from "@/lib/services/invoices/pdf-render";
import { renderQuotePdf } from "@/lib/services/quotes/quote-pdf";
import { renderStatementPdf } from "@/lib/services/statements/pdf";
import {
  SAMPLE_CREDIT_NOTE,
  SAMPLE_INVOICE,
  SAMPLE_LINE_ITEM,
  SAMPLE_PARTLY_PAID_INVOICE,
  SAMPLE_SALES_QUOTE,
} from "@/tests/helpers/samples";

// The one frame of every document PDF (lib/services/documents/pdf-frame.ts; docs/decisions.md,
// Document PDFs): read back as a PDF reader extracts it (pdfjs), page by page.
async function pages(pdf: Buffer): Promise<string[][]> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise;
  const out: string[][] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    out.push(content.items.map((i) => ("str" in i ? i.str.trim() : "")).filter((s) => s !== ""));
  }
  await doc.destroy();
  return out;
}

/** The lines printed under the first FROM label, up to the next label (TO, BILL TO). */
function fromBlock(page: string[], from: string, to: string): string[] {
  const start = page.indexOf(from);
  const end = page.indexOf(to, start + 1);
  expect(start, `${from} on the page`).toBeGreaterThanOrEqual(0);
  return page.slice(start + 1, end);
}

const SELLER = ["12 Loom Street, London", "Tax ID: GB123456789"];
const lines = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    ...SAMPLE_LINE_ITEM,
    id: `line${i}`,
    description: `Item ${i + 1}`,
  }));

describe("the document PDF frame", () => {
  for (const lang of LANGUAGES) {
    it(`the invoice, quote, credit note and statement carry the seller's lines under FROM, the title on top (${lang})`, async () => {
      const invoice = { ...SAMPLE_INVOICE, language: lang, lineItems: [SAMPLE_LINE_ITEM] };
      const docs: [string, Buffer, string, string, string][] = [
        [
          "invoice",
          await renderInvoicePdf(invoice, {
            paymentLink: "https://invoices.example/pay/1",
            compress: false,
            profile: { logo: null, lines: SELLER },
          }),
          t(lang, "pdf.heading"),
          t(lang, "pdf.from"),
          t(lang, "pdf.billTo"),
        ],
        [
          "quote",
          await renderQuotePdf(
            { ...SAMPLE_SALES_QUOTE, language: lang },
            { compress: false, sellerLines: SELLER },
          ),
          t(lang, "quote.title"),
          t(lang, "quote.from"),
          t(lang, "quote.to"),
        ],
        [
          "credit note",
          await renderCreditNotePdf(
            SAMPLE_CREDIT_NOTE,
            { ...SAMPLE_PARTLY_PAID_INVOICE, language: lang },
            { compress: false, sellerLines: SELLER },
          ),
          t(lang, "creditNote.title"),
          t(lang, "creditNote.from"),
          t(lang, "creditNote.to"),
        ],
        [
          "statement",
          await renderStatementPdf(
            {
              client: { id: "c1", name: "Zoë Client", email: "zoe@example.com" } as ClientRow,
              from: "2026-02-01",
              to: "2026-02-28",
              currencies: buildStatement([], new Date("2026-02-01"), new Date("2026-03-01")),
            },
            { lang, sellerLines: ["Sam Freelancer", ...SELLER], issuedAt: new Date() },
          ),
          t(lang, "statement.title"),
          t(lang, "statement.from"),
          t(lang, "statement.to"),
        ],
      ];
      for (const [what, pdf, title, fromLabel, to] of docs) {
        const [first] = await pages(pdf);
        expect(first[0], `${what}: the title first`).toBe(title);
        const from = fromBlock(first, fromLabel, to);
        // The profile's lines after the seller's name, in order; the invoice's and the credit
        // note's seller block ends with the wallet (the client's quote copy leaves it out).
        const at = from.indexOf(SELLER[0]);
        expect(at, `${what}: ${from.join(" / ")}`).toBeGreaterThan(0);
        expect(from.slice(at, at + SELLER.length)).toEqual(SELLER);
        const wallet = from.slice(at + SELLER.length).join("");
        expect(wallet).toBe(
          what === "invoice" || what === "credit note" ? invoice.freelancerWallet : "",
        );
      }
    });
  }

  it("the quote and the credit note repeat the line-item header on each page, as the invoice does", async () => {
    const many = lines(80);
    const quote = await renderQuotePdf(
      {
        ...SAMPLE_SALES_QUOTE,
        lineItems: many.map((l) => ({
          ...l,
          taxCategory: null,
          exemptionReason: null,
        })) as typeof SAMPLE_SALES_QUOTE.lineItems,
      },
      { compress: false },
    );
    const note = await renderCreditNotePdf(
      { ...SAMPLE_CREDIT_NOTE, lines: many.map((l) => ({ ...SAMPLE_CREDIT_NOTE.lines[0], ...l })) },
      SAMPLE_PARTLY_PAID_INVOICE,
      { compress: false },
    );
    const invoice = await renderInvoicePdf(
      { ...SAMPLE_INVOICE, lineItems: many },
      { paymentLink: "https://invoices.example/pay/1", compress: false },
    );
    for (const [what, pdf, head] of [
      ["quote", quote, t("en", "quote.description")],
      ["credit note", note, t("en", "creditNote.description")],
      ["invoice", invoice, t("en", "pdf.col.description")],
    ] as const) {
      const all = await pages(pdf);
      expect(all.length, `${what}: several pages`).toBeGreaterThan(1);
      for (const [n, page] of all.entries()) {
        if (!page.some((s) => /^Item \d+$/.test(s))) continue; // the totals' page
        expect(page, `${what}, page ${n + 1}`).toContain(head);
      }
      expect(all.flat()).toContain("Item 80");
    }
  });
});
