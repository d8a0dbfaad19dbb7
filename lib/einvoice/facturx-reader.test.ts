import Big from "big.js";
import { FacturX } from "factur-x-kit";
import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import { loadFonts } from "@/lib/services/documents/pdf-frame";
import { parseCii, text, texts } from "@/tests/helpers/cii-read";
import { LINES, SUMS } from "@/tests/helpers/cii-rules";
import { CASES } from "@/tests/helpers/einvoice-cases";
import { buildCii } from "./cii";
import { embedFacturX, pdfA3Options } from "./facturx";

// The Factur-X container read by an independent Factur-X reader from npm (factur-x-kit, which
// parses the embedded XML into its own EN 16931 model and checks its business rules): every
// EN 16931 document of the case set, invoices and credit notes, embedded as our PDFs embed it
// (lib/einvoice/facturx.ts), comes back with the same totals, seller VAT id and lines.
// XRechnung is delivered as XML, not as a hybrid PDF; factur-x-kit does not read its CIUS.

const SELLER_VAT =
  "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID";

async function facturXPdf(xml: string, title: string): Promise<Uint8Array> {
  const doc = new PDFDocument({ size: "A4", ...pdfA3Options(loadFonts().Body) });
  embedFacturX(doc, xml);
  doc.text(title);
  const chunks: Buffer[] = [];
  doc.on("data", (b: Buffer) => chunks.push(b));
  await new Promise<void>((resolve) => {
    doc.on("end", () => resolve());
    doc.end();
  });
  return new Uint8Array(Buffer.concat(chunks));
}

describe("Factur-X PDFs read by factur-x-kit", () => {
  const hybrid = CASES.filter((c) => c.profile === "en16931");
  it("covers the invoices and credit notes of the case set", () => {
    expect(hybrid.length).toBeGreaterThanOrEqual(11);
  });
  for (const c of hybrid) {
    it(`${c.name}: same totals, seller VAT id and lines; its rules pass`, async () => {
      const xml = buildCii(c.input, c.profile);
      const root = parseCii(xml);
      const fx = await FacturX.fromPDF(await facturXPdf(xml, c.name));
      expect(fx.validate().valid).toBe(true);
      const o = fx.object as {
        document: { id: string; type: string };
        totals: { grossTotal: number; netTotal: number };
        seller: { taxIdentification?: { vatId?: string } };
        invoiceLines: { productDescription: { name: string } }[];
      };
      expect(o.document.id).toBe(c.input.number);
      expect(o.document.type).toBe(c.input.kind === "creditNote" ? "381" : "380");
      const amount = (path: string) => new Big(text(root, `${SUMS}/${path}`) ?? "NaN");
      expect(new Big(o.totals.grossTotal).eq(amount("ram:GrandTotalAmount"))).toBe(true);
      expect(new Big(o.totals.netTotal).eq(amount("ram:TaxBasisTotalAmount"))).toBe(true);
      expect(o.seller.taxIdentification?.vatId ?? null).toBe(text(root, SELLER_VAT) ?? null);
      expect(o.invoiceLines.map((l) => l.productDescription.name)).toEqual(
        texts(root, `${LINES}/ram:SpecifiedTradeProduct/ram:Name`),
      );
    });
  }
});
