import jsQR from "jsqr";
import type { Locator } from "playwright-core";
import { PNG } from "pngjs";

/** Reads a QR code the way a phone camera would: from a screenshot of the element. */
export async function decodeQr(element: Locator): Promise<string> {
  const png = PNG.sync.read(await element.screenshot({ type: "png" }));
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!code) throw new Error(`no QR code found in a ${png.width}x${png.height} screenshot`);
  return code.data;
}
