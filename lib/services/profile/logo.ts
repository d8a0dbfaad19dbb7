import { ValidationError } from "@/lib/domain/errors";

// The profile's logo (docs/decisions.md, Profile): PNG, JPEG or SVG, at most 200 KB, sent as a
// base64 data URL in PUT /api/profile. The type is read from the bytes (magic numbers), never
// trusted from the data URL; an SVG that could run script or load anything is refused.

export const LOGO_TYPES = ["image/png", "image/jpeg", "image/svg+xml"] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** 200 KB of image bytes (after base64 decoding). */
export const MAX_LOGO_BYTES = 200 * 1024;

export const LOGO_TOO_LARGE = "Logo must be at most 200 KB";
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
  if (text !== null && SVG_ROOT.test(text)) return "image/svg+xml";
  return null;
}

/** An XML prolog (declaration, comments, whitespace) then an `<svg` root element. */
const SVG_ROOT = /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>/]/i;

function utf8(data: Buffer): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return null;
  }
}

/**
 * Why an SVG is unsafe, or null when it is not. The rule refuses rather than rewrites
 * (nothing is "cleaned" and then trusted): script elements, event handler attributes
 * (`onload=`...), foreignObject and embedded documents, animations that set a link,
 * `javascript:`, any href or xlink:href not starting with `#`, DOCTYPE and ENTITY
 * declarations, stylesheet processing instructions, `@import`, and url() other than `#id`.
 */
export function unsafeSvgReason(svg: string): string | null {
  const checks: [RegExp, string][] = [
    [/<\s*([\w-]+:)?script\b/i, "script element"],
    [/[\s/"']([\w-]+:)?on[a-z0-9_-]*\s*=/i, "event handler attribute"],
    [/<\s*([\w-]+:)?(foreignObject|iframe|embed|object|audio|video|canvas)\b/i, "embedded content"],
    [/<!\s*(DOCTYPE|ENTITY)/i, "DOCTYPE or ENTITY declaration"],
    [/<\?\s*xml-stylesheet/i, "stylesheet processing instruction"],
    [/javascript\s*:/i, "javascript: URL"],
    [/@import/i, "@import"],
    [
      /<\s*([\w-]+:)?(set|animate\w*)\b[^>]*attributeName\s*=\s*["']?\s*([\w-]+:)?href/i,
      "animated link",
    ],
  ];
  for (const [pattern, reason] of checks) if (pattern.test(svg)) return reason;
  // Links: every href (any prefix) must be a quoted fragment of this document.
  for (const m of svg.matchAll(/([\w-]+:)?href\s*=\s*(["']?)([^"'\s>]*)/gi)) {
    if (!m[2] || !m[3].startsWith("#")) return "external reference";
  }
  // url(...) in style elements, style attributes and presentation attributes: `#id` only.
  for (const m of svg.matchAll(/url\s*\(\s*(["']?)\s*([^)]*)/gi)) {
    if (!m[2].startsWith("#")) return "url() other than a #fragment";
  }
  // Character references could spell any of the above past these checks.
  if (/&#/.test(svg)) return "character reference";
  return null;
}

/**
 * The logo a data URL carries, checked: at most 200 KB, PNG/JPEG/SVG by its bytes, the same
 * type as declared, and a safe SVG. Throws a ValidationError with `details.logo`.
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
    const reason = unsafeSvgReason(utf8(data) ?? "");
    if (reason) throw logoError(`${LOGO_UNSAFE_SVG} (found: ${reason})`);
  }
  return { data, type };
}

function logoError(message: string) {
  return new ValidationError("Invalid request", { logo: message });
}
