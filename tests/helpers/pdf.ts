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

/**
 * The QR codes a phone camera would read off a PDF's first page: the page rendered by pdfjs
 * (on @napi-rs/canvas, its Node canvas) at 3x, then decoded by jsQR. Empty when there is none.
 */
export async function pdfQrCode(pdf: Uint8Array | ArrayBuffer): Promise<string | null> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const { default: jsQR } = await import("jsqr");
  // A copy: pdfjs takes a plain Uint8Array (not a Buffer) and detaches what it is given.
  const data = new Uint8Array(pdf instanceof Uint8Array ? pdf : new Uint8Array(pdf));
  const doc = await getDocument({ data, verbosity: 0 }).promise;
  try {
    const page = await doc.getPage(1);
    const viewport = page.getViewport({ scale: 3 });
    const factory = doc.canvasFactory as {
      create(w: number, h: number): { canvas: unknown; context: CanvasRenderingContext2D };
    };
    const { canvas, context } = factory.create(viewport.width, viewport.height);
    await page.render({ canvas: canvas as HTMLCanvasElement, canvasContext: context, viewport })
      .promise;
    const image = context.getImageData(0, 0, viewport.width, viewport.height);
    return jsQR(image.data, image.width, image.height)?.data ?? null;
  } finally {
    await doc.destroy();
  }
}

/**
 * A PDF as pdfjs reads it (an independent reader): its embedded files by name (the document's
 * EmbeddedFiles name tree) and its XMP metadata, raw, as its catalog's /Metadata holds it.
 */
export async function pdfEmbedded(
  pdf: Uint8Array | ArrayBuffer,
): Promise<{ files: Record<string, string>; xmp: string | null; header: string }> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const data = pdf instanceof Uint8Array ? pdf : new Uint8Array(pdf);
  const header = Buffer.from(data.subarray(0, 8)).toString("latin1");
  // A copy as a plain Uint8Array (pdfjs refuses a Buffer, and detaches what it is given).
  const doc = await getDocument({ data: new Uint8Array(data), verbosity: 0 }).promise;
  const attachments = ((await doc.getAttachments()) ?? {}) as Record<
    string,
    { filename: string; content: Uint8Array }
  >;
  const { metadata } = await doc.getMetadata();
  await doc.destroy();
  const files = Object.fromEntries(
    Object.values(attachments).map((a) => [a.filename, Buffer.from(a.content).toString("utf8")]),
  );
  return { files, xmp: metadata?.getRaw() ?? null, header };
}
