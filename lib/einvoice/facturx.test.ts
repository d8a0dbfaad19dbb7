import fs from "node:fs";
import path from "node:path";
import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import { pdfEmbedded } from "@/tests/helpers/pdf";
import { embedFacturX, FACTURX_FILE_NAME, pdfA3Options } from "./facturx";

// The Factur-X wrapper on its own, on any pdfkit document (the credit note PDF takes it too):
// read back with pdfjs, an independent reader.

const FONT = fs.readFileSync(
  path.join(process.cwd(), "node_modules", "dejavu-fonts-ttf", "ttf", "DejaVuSans.ttf"),
);

function render(title: string, xml: string | null): Promise<Buffer> {
  const doc = new PDFDocument({
    info: { Title: title, Author: "Müller & Söhne <GmbH>", Creator: "test" },
    ...(xml ? pdfA3Options(FONT) : {}),
  });
  if (xml) embedFacturX(doc, xml);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve) => {
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
  });
  doc.text("Hello");
  doc.end();
  return done;
}

const XML =
  '<?xml version="1.0" encoding="UTF-8"?>\n<rsm:CrossIndustryInvoice xmlns:rsm="urn:x">Grüße &amp; more</rsm:CrossIndustryInvoice>';

describe("embedFacturX", () => {
  it("embeds the XML as factur-x.xml, Alternative, text/xml, with the Factur-X XMP", async () => {
    const pdf = await render("Design & <build>", XML);
    const { files, xmp, header } = await pdfEmbedded(pdf);
    expect(header).toBe("%PDF-1.7");
    expect(files).toEqual({ [FACTURX_FILE_NAME]: XML });
    expect(xmp).toContain("<pdfaid:part>3</pdfaid:part>");
    expect(xmp).toContain("<pdfaid:conformance>B</pdfaid:conformance>");
    expect(xmp).toContain("<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>");
    // Escaped: pdfkit's own writer would paste `&` and `<` as they are.
    expect(xmp).toContain("Design &amp; &lt;build&gt;");
    expect(xmp).toContain("Müller &amp; Söhne &lt;GmbH&gt;");
    const raw = pdf.toString("latin1");
    expect(raw).toContain("/AFRelationship /Alternative");
    expect(raw).toContain("/Subtype /text#2Fxml");
    expect(raw).toMatch(/\/AF \[\d+ 0 R\]/);
    expect(raw).toMatch(/\/OutputIntents \[\d+ 0 R\]/);
    // The default font is the embedded one, never pdfkit's unembedded Helvetica.
    expect(raw).not.toContain("/Helvetica");
  });

  it("leaves a document without it as pdfkit makes it", async () => {
    const { files, xmp, header } = await pdfEmbedded(await render("Plain", null));
    expect(files).toEqual({});
    expect(xmp).toBeNull();
    expect(header).toBe("%PDF-1.3");
  });
});
