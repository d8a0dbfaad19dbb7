/** The text of a PDF's first page as pdfjs reads it, one item per line (a real reader). */
export async function pdfText(pdf: Uint8Array | ArrayBuffer): Promise<string> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const data = pdf instanceof Uint8Array ? pdf : new Uint8Array(pdf);
  const doc = await getDocument({ data, verbosity: 0 }).promise;
  const content = await (await doc.getPage(1)).getTextContent();
  await doc.destroy();
  return content.items.map((i) => ("str" in i ? i.str : "")).join("\n");
}

/** The same with every run of whitespace one space: phrases split over lines read whole. */
export const flatPdfText = async (pdf: Uint8Array | ArrayBuffer) =>
  (await pdfText(pdf)).replace(/\s+/g, " ");
