import {
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "@/lib/domain/errors";
import { TOP_LEVEL_MESSAGES } from "@/lib/schemas/common";
import type { z } from "@/lib/zod";

export const INVALID_REQUEST = "Invalid request";
export const MALFORMED_JSON = "Malformed JSON";
export const NOT_JSON = "Content-Type must be application/json";

/** Reads at most `maxBytes` of the body (413 beyond) and parses it as JSON (400 if malformed). */
export async function readJsonBody(req: Request, maxBytes: number): Promise<unknown> {
  const type = req.headers.get("content-type");
  if (type && !/^application\/([\w.+-]*\+)?json\b/i.test(type.trim())) {
    throw new UnsupportedMediaTypeError(NOT_JSON);
  }
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return undefined;
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError(INVALID_REQUEST, { body: MALFORMED_JSON });
  }
}

export function tooLarge(maxBytes: number) {
  return new PayloadTooLargeError(`Request body too large (max ${maxBytes} bytes)`);
}

/**
 * Strings PostgreSQL cannot store (NUL) or that are not valid Unicode (lone surrogates) are
 * refused up front, for every field of every endpoint, as a 400.
 */
function findUnstorableText(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === "string") {
    return value.includes("\u0000") || !value.isWellFormed() ? path || "body" : null;
  }
  if (depth > 20 || value === null || typeof value !== "object") return null;
  for (const [k, v] of Object.entries(value)) {
    const found = findUnstorableText(v, path ? `${path}.${k}` : k, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Validates with zod; failures are 400 with `message` and a per-field `details` map. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  message = INVALID_REQUEST,
): z.infer<S> {
  const bad = findUnstorableText(value, "");
  if (bad) {
    throw new ValidationError(message, {
      [bad]: "contains a NUL character or invalid Unicode",
    });
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details: Record<string, string> = {};
  let topLevel: string | undefined;
  for (const issue of result.error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "body";
    details[key] ??= issue.message;
    if (!topLevel && TOP_LEVEL_MESSAGES.has(issue.message)) topLevel = issue.message;
  }
  throw new ValidationError(topLevel ?? message, details);
}
