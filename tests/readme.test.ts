import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { confirmPayment } from "@/app/api/payments/confirm/spec";
import { submitPayment } from "@/app/api/payments/submit/spec";
import { envSchema } from "@/lib/config";
import { z } from "@/lib/zod";

/**
 * The README is what a newcomer reads first: these checks keep the parts the code can vouch
 * for true (the payment calls' bodies, the configuration table).
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

/** `| \`NAME\` | default | required | what it does |` rows of the README's Configuration table. */
function configurationTable(): Map<string, string> {
  const rows = section("Configuration")
    .split("\n")
    .map((line) => /^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null);
  return new Map(rows.map((m) => [m[1], m[2].trim()]));
}

/** What a Default cell says: the value in its first code span, or undefined for "—". */
const defaultIn = (cell: string) =>
  cell.startsWith("—") ? undefined : /`([^`]*)`/.exec(cell)?.[1];

/** Variables server.ts reads itself (`process.env.PORT ?? 3000`), with their defaults. */
function serverVariables(): Map<string, string | undefined> {
  const source = fs.readFileSync(path.join(ROOT, "server.ts"), "utf8");
  const reads = source.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)(?: \?\? "?([^")]*)"?)?/g);
  return new Map([...reads].map((m) => [m[1], m[2]]));
}

/** Every variable the app reads, with its default as text (undefined: none). */
function variablesRead(): Map<string, string | undefined> {
  const read = new Map<string, string | undefined>();
  for (const [name, schema] of Object.entries(envSchema().shape)) {
    const parsed = (schema as z.ZodType).safeParse(undefined);
    read.set(name, parsed.success && parsed.data !== undefined ? String(parsed.data) : undefined);
  }
  for (const [name, fallback] of serverVariables()) read.set(name, fallback);
  return read;
}

describe("README: configuration", () => {
  it("the table lists every variable lib/config.ts and server.ts read, and no other", () => {
    const table = configurationTable();
    const read = variablesRead();
    expect(read.has("PORT") && read.has("DATABASE_URL")).toBe(true);
    expect([...table.keys()].sort()).toEqual([...read.keys()].sort());
  });

  it("each default in the table is the one the code applies", () => {
    const table = configurationTable();
    for (const [name, fallback] of variablesRead()) {
      expect(defaultIn(table.get(name) ?? ""), name).toBe(fallback);
    }
  });

  it(".env.example sets the same variables (all but NODE_ENV) to the same defaults", () => {
    const example = fs.readFileSync(path.join(ROOT, ".env.example"), "utf8");
    const assigned = new Map(
      [...example.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1], m[2]]),
    );
    const read = variablesRead();
    read.delete("NODE_ENV"); // set by the scripts and Next.js, never in .env
    expect([...assigned.keys()].sort()).toEqual([...read.keys()].sort());
    for (const [name, fallback] of read) {
      expect(assigned.get(name) || undefined, name).toBe(fallback);
    }
  });
});
