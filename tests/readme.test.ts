import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { confirmPayment } from "@/app/api/payments/confirm/spec";
import { submitPayment } from "@/app/api/payments/submit/spec";

/**
 * The README is what a newcomer reads first: these checks keep the parts the code can vouch
 * for true (the payment calls' bodies).
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const README = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");

/** The text of a `## Title` section, up to the next section of the same level. */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  expect(start, `README has a "## ${title}" section`).toBeGreaterThan(-1);
  const next = README.indexOf("\n## ", start + 1);
  return README.slice(start, next === -1 ? undefined : next);
}

/** The keys of the JSON body of the README's curl call to `endpoint` ($ID stands for an id). */
function curlBodyKeys(text: string, endpoint: string): string[] {
  const call = text
    .split("\ncurl ")
    .slice(1)
    .find((c) => c.split("\n")[0].includes(endpoint));
  expect(call, `a curl call to ${endpoint}`).toBeDefined();
  const body = /-d "((?:[^"\\]|\\.)*)"|-d '([^']*)'/.exec(call as string);
  expect(body, `the curl call to ${endpoint} has a -d body`).not.toBeNull();
  const json = (body?.[1] ?? body?.[2] ?? "").replace(/\\"/g, '"').replace(/\$ID/g, "id");
  return Object.keys(JSON.parse(json));
}

const requiredKeys = (schema: z.ZodType) =>
  (z.toJSONSchema(schema, { io: "input" }) as { required?: string[] }).required ?? [];

describe("README: payments", () => {
  it.each([
    ["submit", submitPayment],
    ["confirm", confirmPayment],
  ] as const)("%s: the README's call and the OpenAPI description name invoiceId", (name, op) => {
    const payments = section("Payments");
    const required = requiredKeys(op.body?.schema as z.ZodType);
    expect(required).toContain("invoiceId");
    // The prose says it, and the example sends every required field.
    expect(payments).toMatch(new RegExp(`\`POST /api/payments/${name}\` with \`invoiceId\``, "m"));
    expect(curlBodyKeys(payments, `/api/payments/${name}`)).toEqual(
      expect.arrayContaining(required),
    );
    expect(op.description).toContain("`invoiceId`");
  });
});
