import type PDFDocument from "pdfkit";

// Factur-X / ZUGFeRD (docs/decisions.md, E-invoices): a PDF/A-3b document carrying the CII XML
// (EN 16931 profile) as `factur-x.xml`, related to the document as its `Alternative`, and the
// Factur-X XMP metadata. pdfkit writes the PDF/A-3b container itself (its `subset` option: the
// sRGB IEC61966-2.1 output intent from the ICC profile pdfkit ships, `pdfaid` part 3 / B, the
// trailer ID, embedded fonts), so this module only adds what a Factur-X file adds to it. Generic
// over the document: the invoice PDF and the credit note PDF call the same two functions.

type Doc = InstanceType<typeof PDFDocument>;

export const FACTURX_FILE_NAME = "factur-x.xml";
const FX_NAMESPACE = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#";

/**
 * The pdfkit constructor options of a PDF/A-3b document (PDF 1.7, which also makes pdfkit write
 * the XMP metadata stream). `font` is the document's default font: pdfkit's default is
 * Helvetica, a standard font it never embeds, which PDF/A forbids.
 */
export function pdfA3Options(font: Buffer): PDFKit.PDFDocumentOptions {
  // pdfkit opens a font given as bytes (its types say a name or path only).
  return { subset: "PDF/A-3b", pdfVersion: "1.7", font } as unknown as PDFKit.PDFDocumentOptions;
}

const escapeXml = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    // XML 1.0 cannot carry control characters (an invoice title could).
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to drop them
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

/** The XMP property list of the Factur-X extension schema (Factur-X 1.0, section 6.2.2). */
const FX_PROPERTIES = [
  ["DocumentFileName", "The name of the embedded XML document"],
  ["DocumentType", "The type of the hybrid document in capital letters, e.g. INVOICE or ORDER"],
  ["Version", "The actual version of the standard applying to the embedded XML document"],
  ["ConformanceLevel", "The conformance level of the embedded XML document"],
] as const;

function facturXXmp(conformance: string): string {
  const properties = FX_PROPERTIES.map(
    ([name, description]) => `<rdf:li rdf:parseType="Resource">
<pdfaProperty:name>${name}</pdfaProperty:name>
<pdfaProperty:valueType>Text</pdfaProperty:valueType>
<pdfaProperty:category>external</pdfaProperty:category>
<pdfaProperty:description>${description}</pdfaProperty:description>
</rdf:li>`,
  ).join("\n");
  return `<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
<pdfaSchema:namespaceURI>${FX_NAMESPACE}</pdfaSchema:namespaceURI>
<pdfaSchema:prefix>fx</pdfaSchema:prefix>
<pdfaSchema:property><rdf:Seq>
${properties}
</rdf:Seq></pdfaSchema:property>
</rdf:li></rdf:Bag></pdfaExtension:schemas>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:fx="${FX_NAMESPACE}">
<fx:DocumentType>INVOICE</fx:DocumentType>
<fx:DocumentFileName>${FACTURX_FILE_NAME}</fx:DocumentFileName>
<fx:Version>1.0</fx:Version>
<fx:ConformanceLevel>${conformance}</fx:ConformanceLevel>
</rdf:Description>`;
}

/**
 * The document information as XMP, escaped. pdfkit's own writer (`_addInfo`, pdfkit 0.20)
 * pastes the title and author into the XML as they are, so an invoice titled "Design & build"
 * would make the metadata ill-formed and the file no PDF/A; PDF/A also wants each Info entry
 * repeated in the XMP, which this does, with the Factur-X schema after it.
 */
function infoXmp(info: Record<string, unknown>): string {
  const text = (v: unknown) => escapeXml(String(v));
  const created = info.CreationDate instanceof Date ? info.CreationDate : new Date();
  const parts = [
    `<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
<xmp:CreateDate>${created.toISOString().split(".")[0]}Z</xmp:CreateDate>
<xmp:CreatorTool>${text(info.Creator)}</xmp:CreatorTool>
</rdf:Description>`,
  ];
  const dc: string[] = [];
  if (info.Title)
    dc.push(
      `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${text(info.Title)}</rdf:li></rdf:Alt></dc:title>`,
    );
  if (info.Author)
    dc.push(`<dc:creator><rdf:Seq><rdf:li>${text(info.Author)}</rdf:li></rdf:Seq></dc:creator>`);
  if (info.Subject)
    dc.push(
      `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${text(info.Subject)}</rdf:li></rdf:Alt></dc:description>`,
    );
  if (dc.length > 0) {
    parts.push(
      `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">\n${dc.join("\n")}\n</rdf:Description>`,
    );
  }
  parts.push(
    `<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
<pdf:Producer>${text(info.Producer)}</pdf:Producer>${info.Keywords ? `\n<pdf:Keywords>${text(info.Keywords)}</pdf:Keywords>` : ""}
</rdf:Description>`,
  );
  return parts.join("\n");
}

/**
 * Makes `doc` (created with `pdfA3Options`) a Factur-X file: the CII XML embedded as
 * `factur-x.xml` (MIME text/xml, AFRelationship Alternative, listed in the catalog's /AF and
 * the EmbeddedFiles names) and the Factur-X XMP (DocumentType INVOICE, Version 1.0, the
 * conformance level, EN 16931 by default). Call it any time before `doc.end()`.
 */
export function embedFacturX(
  doc: Doc,
  xml: string,
  opts: { conformance?: "EN 16931"; description?: string } = {},
): void {
  const internal = doc as unknown as {
    info: Record<string, unknown>;
    appendXML(xml: string, newline?: boolean): void;
    _addInfo(): void;
  };
  const at = internal.info.CreationDate instanceof Date ? internal.info.CreationDate : new Date();
  doc.file(Buffer.from(xml, "utf8"), {
    name: FACTURX_FILE_NAME,
    type: "text/xml",
    relationship: "Alternative",
    description: opts.description ?? "Factur-X / ZUGFeRD e-invoice (CII, EN 16931)",
    creationDate: at,
    modifiedDate: at,
  } as PDFKit.Mixins.PDFAttachmentOptions);
  const conformance = opts.conformance ?? "EN 16931";
  internal._addInfo = () => {
    internal.appendXML(infoXmp(internal.info));
    internal.appendXML(facturXXmp(conformance));
  };
}
