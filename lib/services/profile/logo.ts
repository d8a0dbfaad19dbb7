import { SaxesParser } from "saxes";
import { ValidationError } from "@/lib/domain/errors";

// The profile's logo (docs/decisions.md, Profile): PNG, JPEG or SVG, at most 200 KB (an SVG
// 100 KB), sent as a base64 data URL in PUT /api/profile. The type is read from the bytes
// (magic numbers), never trusted from the data URL; an SVG that could run script or load
// anything is refused.

export const LOGO_TYPES = ["image/png", "image/jpeg", "image/svg+xml"] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** 200 KB of image bytes (after base64 decoding). */
export const MAX_LOGO_BYTES = 200 * 1024;

export const LOGO_TOO_LARGE = "Logo must be at most 200 KB";
/**
 * An SVG is text every check reads whole: a tighter cap than a PNG's or JPEG's bytes (a logo's
 * SVG is a few kilobytes; 100 KB still takes detailed artwork).
 */
export const MAX_SVG_LOGO_BYTES = 100 * 1024;
export const LOGO_SVG_TOO_LARGE = "SVG logo must be at most 100 KB";
export const LOGO_NOT_DATA_URL =
  "Logo must be a data URL: data:image/png;base64,..., image/jpeg or image/svg+xml";
export const LOGO_TYPE_MISMATCH = "Logo content does not match its type (PNG, JPEG or SVG)";
export const LOGO_UNSAFE_SVG =
  "SVG logo refused: it may not contain scripts, event handlers, foreignObject, external references, entities or url() other than #fragments";

export type Logo = { data: Buffer; type: LogoType };

const DATA_URL = /^data:([a-z0-9.+/-]+);base64,([A-Za-z0-9+/]*={0,2})$/i;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

/** The image type the bytes are, by their first bytes (an SVG by its root element), or null. */
export function sniffLogoType(data: Buffer): LogoType | null {
  if (data.subarray(0, 8).equals(PNG_MAGIC)) return "image/png";
  if (data.subarray(0, 3).equals(JPEG_MAGIC)) return "image/jpeg";
  const text = utf8(data);
  if (text !== null && startsWithSvgRoot(text)) return "image/svg+xml";
  return null;
}

/**
 * An XML prolog (a BOM, the XML declaration, comments, whitespace) then an `<svg` root
 * element. A plain left-to-right scan: a regex with a repeated comment group backtracks
 * exponentially on many comments not followed by `<svg`.
 */
function startsWithSvgRoot(text: string): boolean {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  skipSpace();
  if (text.startsWith("<?xml", i)) {
    const end = text.indexOf("?>", i);
    if (end < 0 || text.slice(i, end).includes(">")) return false;
    i = end + 2;
    skipSpace();
  }
  while (text.startsWith("<!--", i)) {
    const end = text.indexOf("-->", i + 4);
    if (end < 0) return false;
    i = end + 3;
    skipSpace();
  }
  return /^<svg[\s>/]/i.test(text.slice(i, i + 5));
}

function utf8(data: Buffer): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return null;
  }
}

/** What an SVG's elements and attributes may not be (names compared without case or prefix). */
const SCRIPT_ELEMENTS = new Set(["script"]);
const EMBEDDING_ELEMENTS = new Set([
  "foreignobject",
  "iframe",
  "embed",
  "object",
  "audio",
  "video",
  "canvas",
]);
const ANIMATION = /^(set|animate\w*)$/i;
const HREF_VALUE = /^\s*([\w-]+:)?href/i;
/**
 * Elements open at once. The parser looks a prefix up through every open element, so depth
 * must be bounded for the check to stay linear; a logo nests a few groups, not hundreds.
 */
export const MAX_SVG_DEPTH = 100;

class Unsafe extends Error {}

/**
 * Why an SVG is unsafe, or null when it is not. The rule refuses rather than rewrites
 * (nothing is "cleaned" and then trusted). The SVG is read by an XML parser (saxes: strict
 * XML 1.0 with namespaces, one pass, linear in the input; docs/decisions.md, Profile), so
 * what is checked is what a browser reads: it must be well-formed, and it is refused for
 * script elements, event handler attributes (`onload=`...), foreignObject and embedded
 * documents, animations that set a link, any href or xlink:href not starting with `#`, a
 * DOCTYPE (so no ENTITY declarations) and stylesheet processing instructions. The text as a
 * whole (attributes, style elements, CDATA, comments) may not hold `javascript:`, `@import`,
 * url() other than `#id`, nor any numeric character reference (which could spell the rest):
 * plain scans, each linear too.
 */
export function unsafeSvgReason(svg: string): string | null {
  try {
    checkSvgStructure(svg);
  } catch (err) {
    if (err instanceof Unsafe) return err.message;
    return "not well-formed XML";
  }
  if (/javascript\s*:/i.test(svg)) return "javascript: URL";
  if (/@import/i.test(svg)) return "@import";
  // url(...) in style elements, style attributes and presentation attributes: `#id` only.
  // Each match ends where the next search starts, so this stays one pass.
  for (const m of svg.matchAll(/url\s*\(\s*(["']?)\s*([^)]*)/gi)) {
    if (!m[2].startsWith("#")) return "url() other than a #fragment";
  }
  // Character references could spell any of the above past these checks.
  if (svg.includes("&#")) return "character reference";
  return null;
}

/** Parses the SVG; throws Unsafe with the reason, or the parser's error when it is not XML. */
function checkSvgStructure(svg: string): void {
  const parser = new SaxesParser({ xmlns: true, position: false });
  let depth = 0;
  parser.on("opentagstart", () => {
    if (++depth > MAX_SVG_DEPTH) throw new Unsafe(`more than ${MAX_SVG_DEPTH} nested elements`);
  });
  parser.on("closetag", () => {
    depth--;
  });
  parser.on("doctype", () => {
    throw new Unsafe("DOCTYPE or ENTITY declaration");
  });
  parser.on("processinginstruction", (pi) => {
    if (pi.target.toLowerCase() === "xml-stylesheet") {
      throw new Unsafe("stylesheet processing instruction");
    }
  });
  parser.on("opentag", (tag) => {
    const element = tag.local.toLowerCase();
    if (SCRIPT_ELEMENTS.has(element)) throw new Unsafe("script element");
    if (EMBEDDING_ELEMENTS.has(element)) throw new Unsafe("embedded content");
    for (const attribute of Object.values(tag.attributes)) {
      const name = attribute.local.toLowerCase();
      if (name.startsWith("on")) throw new Unsafe("event handler attribute");
      // Links: every href (any prefix) must be a fragment of this document.
      if (name === "href" && !attribute.value.startsWith("#")) {
        throw new Unsafe("external reference");
      }
      if (ANIMATION.test(tag.local) && name === "attributename") {
        if (HREF_VALUE.test(attribute.value)) throw new Unsafe("animated link");
      }
    }
  });
  parser.write(svg).close();
}

/**
 * The logo a data URL carries, checked: at most 200 KB, PNG/JPEG/SVG by its bytes, the same
 * type as declared, and a safe SVG of at most 100 KB. Throws a ValidationError with `details.logo`.
 */
export function parseLogoDataUrl(input: string): Logo {
  const m = DATA_URL.exec(input.trim());
  if (!m) throw logoError(LOGO_NOT_DATA_URL);
  const declared = m[1].toLowerCase();
  if (!(LOGO_TYPES as readonly string[]).includes(declared)) throw logoError(LOGO_NOT_DATA_URL);
  // Checked on the text first, so a huge body is never decoded.
  if (Math.floor((m[2].length * 3) / 4) - (m[2].match(/=/g)?.length ?? 0) > MAX_LOGO_BYTES) {
    throw logoError(LOGO_TOO_LARGE);
  }
  const data = Buffer.from(m[2], "base64");
  if (data.length === 0) throw logoError(LOGO_NOT_DATA_URL);
  if (data.length > MAX_LOGO_BYTES) throw logoError(LOGO_TOO_LARGE);
  const type = sniffLogoType(data);
  if (type !== declared) throw logoError(LOGO_TYPE_MISMATCH);
  if (type === "image/svg+xml") {
    if (data.length > MAX_SVG_LOGO_BYTES) throw logoError(LOGO_SVG_TOO_LARGE);
    const reason = unsafeSvgReason(utf8(data) ?? "");
    if (reason) throw logoError(`${LOGO_UNSAFE_SVG} (found: ${reason})`);
  }
  return { data, type };
}

function logoError(message: string) {
  return new ValidationError("Invalid request", { logo: message });
}
