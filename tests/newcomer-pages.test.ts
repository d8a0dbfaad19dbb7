import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, startApp } from "./helpers/app";
import { createTestDatabase } from "./helpers/postgres";

/** What a newcomer meets on the built server: a favicon. */
let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
  });
});

afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

describe("favicon", () => {
  it("/favicon.ico answers 200 with an icon, and pages link it", async () => {
    const res = await fetch(`${app.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\//);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0])); // an ICO header
    const page = await (await fetch(`${app.url}/`)).text();
    expect(page).toMatch(/<link rel="icon" href="\/favicon\.ico[^"]*"/);
  });
});
