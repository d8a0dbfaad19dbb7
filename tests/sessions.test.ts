import { Keypair } from "@stellar/stellar-sdk";
import { decodeJwt } from "jose";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { housekeeping } from "@/lib/jobs/housekeeping";
import { INVALID_TOKEN } from "@/lib/services/auth/messages";
import { forgetRevocations, revokeAllSessions, revokeSession } from "@/lib/services/auth/sessions";
import { issueSessionToken, verifySessionToken } from "@/lib/services/auth/token";
import type { ServiceContext } from "@/lib/services/context";
import { type RunningApp, startApp } from "./helpers/app";
import { getJson, postJson, requestNonce, signIn, signMessage } from "./helpers/auth";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";

/**
 * Sign-out that signs out (docs/decisions.md "Authentication"): two instances on one
 * database; a revoked token is refused by the instance that revoked it at once and by the
 * other within 5 seconds (its cache).
 */
let apps: RunningApp[] = [];
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let handle: DatabaseHandle;

beforeAll(async () => {
  db = await createTestDatabase();
  handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  apps = await Promise.all(
    [0, 1].map(() => startApp({ DATABASE_URL: db.url, RATE_LIMIT_GLOBAL_PER_MINUTE: "100000" })),
  );
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await handle?.close();
  await Promise.all(apps.map((a) => a.stop()));
  await db?.drop();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const INVALID = "Invalid or expired token";

async function del(url: string, token: string) {
  const res = await fetch(url, { method: "DELETE", headers: bearer(token) });
  return { status: res.status, text: await res.text() };
}

const whoAmI = (app: RunningApp, token: string) =>
  getJson(`${app.url}/api/auth/session`, bearer(token));

/** Polls until the token is refused; returns how long that took. */
async function refusedWithin(app: RunningApp, token: string, ms: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    const res = await whoAmI(app, token);
    if (res.status === 401) {
      expect(res.body.error).toBe(INVALID);
      return Date.now() - start;
    }
    expect(res.status).toBe(200);
    if (Date.now() - start > ms) throw new Error(`still accepted after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("sign-out", () => {
  it("tokens carry a jti and iat, and still expire one hour after issue", async () => {
    const before = Date.now();
    const kp = Keypair.random();
    const { nonce, message } = await requestNonce(apps[0].url, kp.publicKey());
    const res = await postJson(`${apps[0].url}/api/auth/session`, {
      walletAddress: kp.publicKey(),
      nonce,
      signature: signMessage(kp, message, { digest: "raw", encoding: "hex" }),
    });
    expect(res.status).toBe(200);
    const claims = decodeJwt(res.body.token);
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof claims.iat).toBe("number");
    expect(claims.exp).toBe(Math.floor(Date.parse(res.body.expiresAt) / 1000));
    expect((claims.exp as number) - Math.floor(claims.iat as number)).toBe(3600);
    expect(Date.parse(res.body.expiresAt)).toBeGreaterThanOrEqual(before + 3600_000 - 2000);
  });

  it("DELETE /api/auth/session: 204, refused at once here and within 5 s on the other instance", async () => {
    const { token } = await signIn(apps[0].url);
    const other = await signIn(apps[0].url);
    // Both instances have seen (and cached) the token as valid.
    expect((await whoAmI(apps[0], token)).status).toBe(200);
    expect((await whoAmI(apps[1], token)).status).toBe(200);

    const res = await del(`${apps[0].url}/api/auth/session`, token);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");

    const here = await whoAmI(apps[0], token);
    expect(here.status).toBe(401);
    expect(here.body.error).toBe(INVALID);
    expect(await refusedWithin(apps[1], token, 5_500)).toBeLessThanOrEqual(5_500);
    // The same token is refused everywhere, on any endpoint, and cannot sign out again.
    expect((await getJson(`${apps[1].url}/api/invoices`, bearer(token))).status).toBe(401);
    expect((await del(`${apps[1].url}/api/auth/session`, token)).status).toBe(401);
    // Another session is untouched.
    expect((await whoAmI(apps[1], other.token)).status).toBe(200);
    const [row] = await sql`select wallet_address, expires_at from revoked_sessions`;
    expect(row.wallet_address).toBeDefined();
  });

  it("DELETE /api/auth/sessions signs out every token of the wallet, not another wallet's", async () => {
    const kp = Keypair.random();
    const a = await signIn(apps[0].url, kp);
    const b = await signIn(apps[1].url, kp);
    const stranger = await signIn(apps[0].url);
    for (const app of apps) {
      for (const t of [a.token, b.token, stranger.token]) {
        expect((await whoAmI(app, t)).status).toBe(200);
      }
    }

    expect((await del(`${apps[1].url}/api/auth/sessions`, b.token)).status).toBe(204);
    // The revoking instance refuses both at once.
    for (const t of [a.token, b.token]) {
      const res = await whoAmI(apps[1], t);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(INVALID);
    }
    await refusedWithin(apps[0], a.token, 5_500);
    await refusedWithin(apps[0], b.token, 5_500);
    for (const app of apps) expect((await whoAmI(app, stranger.token)).status).toBe(200);

    // Signing in again right away works on both instances.
    const again = await signIn(apps[0].url, kp);
    for (const app of apps) expect((await whoAmI(app, again.token)).status).toBe(200);
  });

  it("answers 401 without credentials", async () => {
    for (const path of ["/api/auth/session", "/api/auth/sessions"]) {
      const res = await fetch(`${apps[0].url}${path}`, { method: "DELETE" });
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe("Authentication required");
    }
  });
});

describe("the sign-in message", () => {
  it("names the app's origin on its own line, and a signature over it verifies", async () => {
    for (const digest of ["raw", "sep53"] as const) {
      const kp = Keypair.random();
      const { nonce, message } = await requestNonce(apps[0].url, kp.publicKey());
      expect(message.split("\n")).toContain(`URI: ${apps[0].url}`);
      const res = await postJson(`${apps[0].url}/api/auth/session`, {
        walletAddress: kp.publicKey(),
        nonce,
        signature: signMessage(kp, message, { digest, encoding: "base64" }),
      });
      expect(res.status).toBe(200);
    }
  });
});

describe("revocation in process (clock injected)", () => {
  let clock = new Date("2026-03-01T12:00:00.000Z");
  const ctx = (): ServiceContext => testContext(handle, db.url, () => clock);
  const issue = (wallet: string) =>
    issueSessionToken({ secret: ctx().config.jwtSecret, wallet, now: clock });

  it("tokens still expire on the second, one hour after issue", async () => {
    clock = new Date("2026-03-01T12:00:00.400Z");
    const wallet = Keypair.random().publicKey();
    const { token, expiresAt } = await issue(wallet);
    expect(expiresAt.toISOString()).toBe("2026-03-01T13:00:00.000Z");
    clock = new Date("2026-03-01T12:59:59.999Z");
    expect(await verifySessionToken(ctx(), token)).toBe(wallet);
    clock = new Date("2026-03-01T13:00:00.000Z");
    await expect(verifySessionToken(ctx(), token)).rejects.toThrow(INVALID_TOKEN);
  });

  it("a fresh cache answers without the database; the revoking process knows at once", async () => {
    clock = new Date("2026-03-01T12:00:00.000Z");
    const wallet = Keypair.random().publicKey();
    const { token } = await issue(wallet);
    const first = ctx();
    expect(await verifySessionToken(first, token)).toBe(wallet);
    const claims = first.session;
    if (!claims) throw new Error("no session on ctx");
    // Revoked by "another instance" (straight in the table): this process still trusts its
    // cache (under 5 s old), then reads the revocation once the cache is dropped.
    await sql`insert into revoked_sessions (jti, wallet_address, expires_at, revoked_at)
      values (${claims.jti}, ${wallet}, ${claims.expiresAt}, now())`;
    expect(await verifySessionToken(ctx(), token)).toBe(wallet);
    forgetRevocations();
    await expect(verifySessionToken(ctx(), token)).rejects.toThrow(INVALID_TOKEN);

    const other = await issue(wallet);
    const c = ctx();
    expect(await verifySessionToken(c, other.token)).toBe(wallet);
    await revokeSession(c, c.session as NonNullable<typeof c.session>);
    await expect(verifySessionToken(ctx(), other.token)).rejects.toThrow(INVALID_TOKEN);
  });

  it("sign out everywhere spares a sign-in a millisecond later", async () => {
    clock = new Date("2026-03-01T12:00:00.000Z");
    const wallet = Keypair.random().publicKey();
    const before = await issue(wallet);
    expect(await verifySessionToken(ctx(), before.token)).toBe(wallet);
    clock = new Date("2026-03-01T12:00:00.500Z");
    await revokeAllSessions(ctx(), wallet);
    await expect(verifySessionToken(ctx(), before.token)).rejects.toThrow(INVALID_TOKEN);
    clock = new Date("2026-03-01T12:00:00.501Z");
    const after = await issue(wallet);
    expect(await verifySessionToken(ctx(), after.token)).toBe(wallet);
  });

  it("housekeeping drops revocations of expired tokens and cutoffs older than a session", async () => {
    const wallet = Keypair.random().publicKey();
    clock = new Date("2026-04-01T12:00:00.000Z");
    const live = await issue(wallet);
    const c = ctx();
    await verifySessionToken(c, live.token);
    await revokeSession(c, c.session as NonNullable<typeof c.session>);
    await revokeAllSessions(ctx(), wallet);
    const count = async () => {
      const [r] = await sql`select
        (select count(*) from revoked_sessions where wallet_address = ${wallet})::int as jtis,
        (select count(*) from wallet_session_cutoffs where wallet_address = ${wallet})::int as cutoffs`;
      return r;
    };
    clock = new Date("2026-04-01T12:59:00.000Z");
    await housekeeping(ctx());
    expect(await count()).toEqual({ jtis: 1, cutoffs: 1 });
    clock = new Date("2026-04-01T14:00:00.000Z");
    await housekeeping(ctx());
    expect(await count()).toEqual({ jtis: 0, cutoffs: 0 });
  });
});
