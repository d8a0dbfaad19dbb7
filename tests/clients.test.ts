import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let alice: Api;
let aliceWallet: string;
let bob: Api;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({ DATABASE_URL: db.url, RATE_LIMIT_GLOBAL_PER_MINUTE: "100000" });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  const a = await signIn(app.url);
  aliceWallet = a.wallet;
  alice = client(app.url, a.token);
  bob = client(app.url, (await signIn(app.url)).token);
});

afterAll(async () => {
  await sql?.end();
  await app?.stop();
  await db?.drop();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("clients", () => {
  it("creates a client (201) owned by the caller", async () => {
    const res = await alice.post("/api/clients", {
      name: "Acme",
      email: "Billing@Acme.test",
      company: "Acme Ltd",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Acme",
      email: "billing@acme.test",
      company: "Acme Ltd",
      address: null,
      isFavorite: false,
      freelancerWallet: aliceWallet,
    });
    expect(res.body.createdAt).toBe(res.body.updatedAt);
  });

  it("upserts on (wallet, email): same id, updatedAt moves only on a real change", async () => {
    const first = await alice.post("/api/clients", { name: "Beta", email: "beta@example.com" });
    await pause(20);
    const same = await alice.post("/api/clients", { name: "Beta", email: " BETA@example.com " });
    expect(same.status).toBe(201);
    expect(same.body.id).toBe(first.body.id);
    expect(same.body.updatedAt).toBe(first.body.updatedAt);
    await pause(20);
    const changed = await alice.post("/api/clients", {
      name: "Beta Two",
      email: "beta@example.com",
      address: "Main St 1",
    });
    expect(changed.body.id).toBe(first.body.id);
    expect(changed.body).toMatchObject({ name: "Beta Two", address: "Main St 1" });
    expect(changed.body.createdAt).toBe(first.body.createdAt);
    expect(Date.parse(changed.body.updatedAt)).toBeGreaterThan(Date.parse(first.body.updatedAt));
    // The same email under another owner is another client.
    const other = await bob.post("/api/clients", { name: "Beta", email: "beta@example.com" });
    expect(other.body.id).not.toBe(first.body.id);
  });

  it("lists favorites first, then newest first; only the caller's", async () => {
    const carol = client(app.url, (await signIn(app.url)).token);
    const c1 = (await carol.post("/api/clients", { name: "One", email: "1@x.test" })).body;
    await pause(10);
    const c2 = (await carol.post("/api/clients", { name: "Two", email: "2@x.test" })).body;
    await pause(10);
    const c3 = (await carol.post("/api/clients", { name: "Three", email: "3@x.test" })).body;
    await pause(10);
    const fav = await carol.patch(`/api/clients/${c1.id}/favorite`, { isFavorite: true });
    expect(fav.status).toBe(200);
    expect(fav.body.isFavorite).toBe(true);
    expect(Date.parse(fav.body.updatedAt)).toBeGreaterThan(Date.parse(c1.updatedAt));
    const list = await carol.get("/api/clients");
    expect(list.body.map((c: any) => c.id)).toEqual([c1.id, c3.id, c2.id]);
    const empty = await client(app.url, (await signIn(app.url)).token).get("/api/clients");
    expect(empty.body).toEqual([]);
    const a = await carol.get("/api/clients?envelope=true");
    expect(a.body.success).toBe(true);
    expect(a.body.data).toHaveLength(3);
  });

  it("answers the spec's messages", async () => {
    const noName = await alice.post("/api/clients", { email: "n@x.test" });
    expect(noName.status).toBe(400);
    expect(noName.body.error).toBe("Name is required");
    const blankName = await alice.post("/api/clients", { name: "  ", email: "n@x.test" });
    expect(blankName.body.error).toBe("Name is required");
    const badEmail = await alice.post("/api/clients", { name: "N", email: "nope" });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.error).toBe("Invalid email");
    const noEmail = await alice.post("/api/clients", { name: "N" });
    expect(noEmail.body.error).toBe("Invalid email");
    const anon = await client(app.url).get("/api/clients");
    expect(anon.status).toBe(401);
    expect(anon.body.error).toBe("Authentication required");
    const anonPost = await client(app.url).post("/api/clients", { name: "N", email: "n@x.test" });
    expect(anonPost.status).toBe(401);
  });

  it("enforces the bounds", async () => {
    const cases = [
      { name: "x".repeat(201), email: "b@x.test" },
      { name: "N", email: `${"e".repeat(195)}@x.test` },
      { name: "N", email: "b@x.test", company: "c".repeat(201) },
      { name: "N", email: "b@x.test", address: "a".repeat(501) },
      { name: "N", email: "b@x.test", isFavorite: "yes" },
    ];
    for (const body of cases) {
      const res = await alice.post("/api/clients", body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    const edge = await alice.post("/api/clients", {
      name: "x".repeat(200),
      email: "edge@x.test",
      company: "c".repeat(200),
      address: "a".repeat(500),
    });
    expect(edge.status).toBe(201);
  });

  it("favorite and delete: 404 unknown, 403 another wallet, nothing changed", async () => {
    const mine = (await alice.post("/api/clients", { name: "Mine", email: "mine@x.test" })).body;
    const [before] =
      await sql`select count(*)::int as n, md5(string_agg(c::text, ',' order by id)) as sum from clients c`;
    const stolen = await bob.patch(`/api/clients/${mine.id}/favorite`, { isFavorite: true });
    expect(stolen.status).toBe(403);
    expect(stolen.body.error).toBe("Unauthorized");
    const stolenDelete = await bob.delete(`/api/clients/${mine.id}`);
    expect(stolenDelete.status).toBe(403);
    const [after] =
      await sql`select count(*)::int as n, md5(string_agg(c::text, ',' order by id)) as sum from clients c`;
    expect(after).toEqual(before);

    const missing = await alice.patch("/api/clients/doesnotexist0000000000/favorite", {
      isFavorite: true,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("Client not found");
    const bad = await alice.patch(`/api/clients/${mine.id}/favorite`, { isFavorite: "true" });
    expect(bad.status).toBe(400);

    const del = await alice.delete(`/api/clients/${mine.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect((await alice.delete(`/api/clients/${mine.id}`)).status).toBe(404);
  });
});
