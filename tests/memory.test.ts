import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, startApp } from "./helpers/app";
import { createTestDatabase } from "./helpers/postgres";

/**
 * What the production server keeps resident (ARCHITECTURE.md, Memory). The figures are in
 * bench/results.md; these are the rules behind them that can be seen from outside.
 */
let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({ DATABASE_URL: db.url });
});

afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

describe("production server", () => {
  it("runs on the build's resolved configuration: the SWC compiler (next.config.ts) is never loaded", async () => {
    // A route handler and a page, so anything loaded on first use is loaded.
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/payments/nothing/status`)).status).toBe(404);
    expect((await fetch(`${app.url}/pay/nothing`)).status).toBe(404);
    const maps = fs.readFileSync(`/proc/${app.pid}/maps`, "utf8");
    expect(maps).toContain("/node"); // the file is readable and lists mappings
    expect(maps).not.toMatch(/next-swc|@next\/swc/);
  });

  it("still answers with the configuration next.config.ts gave the build (headers, rewrites)", async () => {
    const page = await fetch(`${app.url}/pay/nothing`);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-powered-by")).toBeNull();
    const v1 = await fetch(`${app.url}/api/v1/health`);
    expect(v1.status).toBe(200);
  });
});
