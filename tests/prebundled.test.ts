import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, startApp } from "./helpers/app";
import { createTestDatabase } from "./helpers/postgres";

/**
 * The production server loads zod, zod-openapi and drizzle-orm prebundled
 * (scripts/prebundle.ts, docs/decisions.md, Cold start, "Prebundled packages"): one copy
 * each, from `@stellar-invoicing/prebundled`, never their own files as well. Node.js logs
 * every ES module it loads under NODE_DEBUG=esm.
 */
let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({ DATABASE_URL: db.url, NODE_DEBUG: "esm" });
});

afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const ROOT = path.resolve(import.meta.dirname, "..");
const loaded = (logs: string) =>
  new Set([...logs.matchAll(/Storing file:\/\/(\S+) /g)].map((m) => path.relative(ROOT, m[1])));

describe("prebundled packages", () => {
  it("a cold status answer and the OpenAPI document load zod and drizzle-orm prebundled, not their own files", async () => {
    const status = await fetch(`${app.url}/api/payments/inv_nothing/status`);
    expect(status.status).toBe(404);
    const doc = await fetch(`${app.url}/openapi.json`);
    expect(doc.status).toBe(200);
    expect((await doc.json()).paths["/api/payments/{invoiceId}/status"].get).toBeDefined();

    const files = [...loaded(app.logs())];
    const prebundled = "node_modules/@stellar-invoicing/prebundled/dist/";
    for (const file of ["zod.js", "drizzle-orm.js", "drizzle-orm-pg-core.js", "zod-openapi.js"]) {
      expect(files).toContain(`${prebundled}${file}`);
    }
    expect(files.filter((f) => /^node_modules\/(zod|zod-openapi|drizzle-orm)\//.test(f))).toEqual(
      [],
    );
  });

  it("ships the prebundled copy with the status route on hosts that deploy traced files", () => {
    const dist = process.env.NEXT_DIST_DIR || ".next";
    const trace = path.join(
      ROOT,
      dist,
      "server/app/api/payments/[invoiceId]/status/route.js.nft.json",
    );
    const files: string[] = JSON.parse(fs.readFileSync(trace, "utf8")).files;
    const packages = new Set(
      files.map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f)?.[1]).filter(Boolean),
    );
    expect(packages).toContain("@stellar-invoicing/prebundled");
    expect(packages).not.toContain("zod");
    expect(packages).not.toContain("drizzle-orm");
  });
});
