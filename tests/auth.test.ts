import { Keypair } from "@stellar/stellar-sdk";
import { SignJWT } from "jose";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, startApp, TEST_JWT_SECRET } from "./helpers/app";
import { getJson, postJson, requestNonce, signIn, signMessage } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

const INVALID_SIGNATURE =
  "Invalid or expired signature. Request a new nonce from POST /api/auth/nonce";

let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({ DATABASE_URL: db.url, RATE_LIMIT_GLOBAL_PER_MINUTE: "100000" });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await app?.stop();
  await db?.drop();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("sign-in", () => {
  it.each([
    { digest: "raw", encoding: "hex" },
    { digest: "raw", encoding: "base64" },
    { digest: "sep53", encoding: "hex" },
    { digest: "sep53", encoding: "base64" },
  ] as const)("signs in with a $digest signature in $encoding", async (mode) => {
    const kp = Keypair.random();
    const nonce = await requestNonce(app.url, kp.publicKey());
    expect(nonce.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(nonce.expiresIn).toBe(300);
    const lines = nonce.message.split("\n");
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe("Stellar Invoicing Test Authentication");
    // The spec's four lines in the spec's order, then the site that asks (docs/decisions.md).
    expect(lines[1]).toBe(`Wallet: ${kp.publicKey()}`);
    expect(lines[2]).toBe(`Nonce: ${nonce.nonce}`);
    expect(lines[3]).toMatch(/^Timestamp: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(lines[4]).toBe(`URI: ${app.url}`);

    const before = Date.now();
    const session = await postJson(`${app.url}/api/auth/session`, {
      walletAddress: kp.publicKey(),
      nonce: nonce.nonce,
      signature: signMessage(kp, nonce.message, mode),
    });
    expect(session.status).toBe(200);
    expect(session.body.walletAddress).toBe(kp.publicKey());
    const expiresAt = Date.parse(session.body.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3600_000 - 2000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000);

    const me = await getJson(`${app.url}/api/auth/session`, bearer(session.body.token));
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ walletAddress: kp.publicKey() });
  });

  it("rejects a malformed wallet address with 400 Invalid Stellar address", async () => {
    const good = Keypair.random().publicKey();
    const badChecksum = good.slice(0, -1) + (good.at(-1) === "A" ? "B" : "A");
    for (const walletAddress of ["GBAD", badChecksum, Keypair.random().secret(), 12, null]) {
      const res = await postJson(`${app.url}/api/auth/nonce`, { walletAddress });
      expect(res.status, String(walletAddress)).toBe(400);
      expect(res.body.error).toBe("Invalid Stellar address");
    }
    const missing = await postJson(`${app.url}/api/auth/nonce`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("Invalid Stellar address");
  });

  it("rejects malformed session bodies with 400 Invalid request", async () => {
    const wallet = Keypair.random().publicKey();
    for (const body of [
      {},
      { walletAddress: wallet },
      { walletAddress: wallet, nonce: "xyz", signature: "00" },
      { walletAddress: wallet, nonce: 5, signature: "00" },
      "{not json",
      "[]",
    ]) {
      const res = await postJson(`${app.url}/api/auth/session`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("Invalid request");
    }
  });

  it("never accepts a nonce twice", async () => {
    const kp = Keypair.random();
    const { nonce, message } = await requestNonce(app.url, kp.publicKey());
    const body = {
      walletAddress: kp.publicKey(),
      nonce,
      signature: signMessage(kp, message, { digest: "raw", encoding: "hex" }),
    };
    expect((await postJson(`${app.url}/api/auth/session`, body)).status).toBe(200);
    const again = await postJson(`${app.url}/api/auth/session`, body);
    expect(again.status).toBe(401);
    expect(again.body.error).toBe(INVALID_SIGNATURE);
  });

  it("rejects an expired nonce", async () => {
    const kp = Keypair.random();
    const { nonce, message } = await requestNonce(app.url, kp.publicKey());
    // The nonce was issued 301 seconds ago (the server's clock is the wall clock).
    await sql`update auth_nonces set expires_at = now() - interval '1 second' where nonce = ${nonce}`;
    const res = await postJson(`${app.url}/api/auth/session`, {
      walletAddress: kp.publicKey(),
      nonce,
      signature: signMessage(kp, message, { digest: "sep53", encoding: "base64" }),
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe(INVALID_SIGNATURE);
  });

  it("rejects a nonce issued to another wallet, without consuming it", async () => {
    const owner = Keypair.random();
    const thief = Keypair.random();
    const { nonce, message } = await requestNonce(app.url, owner.publicKey());
    const stolen = await postJson(`${app.url}/api/auth/session`, {
      walletAddress: thief.publicKey(),
      nonce,
      signature: signMessage(thief, message, { digest: "raw", encoding: "hex" }),
    });
    expect(stolen.status).toBe(401);
    expect(stolen.body.error).toBe(INVALID_SIGNATURE);
    const own = await postJson(`${app.url}/api/auth/session`, {
      walletAddress: owner.publicKey(),
      nonce,
      signature: signMessage(owner, message, { digest: "raw", encoding: "hex" }),
    });
    expect(own.status).toBe(200);
  });

  it("a wrong signature consumes the nonce: the right one afterwards fails too", async () => {
    const kp = Keypair.random();
    const { nonce, message } = await requestNonce(app.url, kp.publicKey());
    const wrong = await postJson(`${app.url}/api/auth/session`, {
      walletAddress: kp.publicKey(),
      nonce,
      signature: signMessage(Keypair.random(), message, { digest: "raw", encoding: "hex" }),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe(INVALID_SIGNATURE);
    const right = await postJson(`${app.url}/api/auth/session`, {
      walletAddress: kp.publicKey(),
      nonce,
      signature: signMessage(kp, message, { digest: "raw", encoding: "hex" }),
    });
    expect(right.status).toBe(401);
    expect(right.body.error).toBe(INVALID_SIGNATURE);
  });

  it("rejects an unknown nonce", async () => {
    const kp = Keypair.random();
    const res = await postJson(`${app.url}/api/auth/session`, {
      walletAddress: kp.publicKey(),
      nonce: "0".repeat(32),
      signature: signMessage(kp, "anything", { digest: "raw", encoding: "hex" }),
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe(INVALID_SIGNATURE);
  });
});

describe("session tokens", () => {
  const enc = new TextEncoder();

  async function expectInvalid(token: string) {
    const res = await getJson(`${app.url}/api/auth/session`, bearer(token));
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("Invalid or expired token");
  }

  it("rejects a token whose signature was tampered with", async () => {
    const { token } = await signIn(app.url);
    const [h, p, s] = token.split(".");
    const flipped = (s[0] === "A" ? "B" : "A") + s.slice(1);
    await expectInvalid(`${h}.${p}.${flipped}`);
    // Payload swapped for another wallet, original signature kept.
    const other = Buffer.from(
      JSON.stringify({ walletAddress: Keypair.random().publicKey(), exp: 9999999999 }),
    ).toString("base64url");
    await expectInvalid(`${h}.${other}.${s}`);
  });

  it("rejects alg none", async () => {
    const header = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    const payload = Buffer.from(
      JSON.stringify({
        walletAddress: Keypair.random().publicKey(),
        exp: Math.floor(Date.now() / 1000) + 600,
      }),
    ).toString("base64url");
    await expectInvalid(`${header}.${payload}.`);
  });

  it("rejects an expired token", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ walletAddress: Keypair.random().publicKey() })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(enc.encode(TEST_JWT_SECRET));
    await expectInvalid(token);
  });

  it("rejects a token signed with another secret", async () => {
    const token = await new SignJWT({ walletAddress: Keypair.random().publicKey() })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(enc.encode("another-secret-another-secret-another-secret"));
    await expectInvalid(token);
  });

  it("asks for authentication when no Bearer credential is sent", async () => {
    for (const headers of [
      {},
      { authorization: "Basic abc" },
      { authorization: "bearer x" },
    ] as Record<string, string>[]) {
      const res = await getJson(`${app.url}/api/auth/session`, headers);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("Authentication required");
    }
  });
});

describe("Form A header credentials", () => {
  it("authenticate one request, and not a second", async () => {
    const kp = Keypair.random();
    const { nonce, message } = await requestNonce(app.url, kp.publicKey());
    const headers = {
      "x-wallet-address": kp.publicKey(),
      "x-auth-nonce": nonce,
      "x-auth-signature": signMessage(kp, message, { digest: "sep53", encoding: "hex" }),
    };
    const first = await getJson(`${app.url}/api/auth/session?envelope=true`, headers);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, data: { walletAddress: kp.publicKey() } });
    const second = await getJson(`${app.url}/api/auth/session?envelope=true`, headers);
    expect(second.status).toBe(401);
    expect(second.body).toEqual({
      success: false,
      error: { code: "UNAUTHORIZED", message: INVALID_SIGNATURE },
    });
  });
});

describe("one error model", () => {
  it("answers unknown /api paths with a JSON 404, in both forms", async () => {
    const b = await getJson(`${app.url}/api/does-not-exist`);
    expect(b.status).toBe(404);
    expect(b.body).toMatchObject({ error: "Not found", code: "NOT_FOUND" });
    const a = await getJson(`${app.url}/api/v1/does/not/exist?envelope=true`);
    expect(a.status).toBe(404);
    expect(a.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: "Not found" } });
  });

  it("answers a wrong method with a JSON 405 and Allow", async () => {
    const res = await fetch(`${app.url}/api/auth/nonce`, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toMatchObject({ error: "Method not allowed" });
  });

  it("serves /api/v1/* like /api/*", async () => {
    const res = await postJson(`${app.url}/api/v1/auth/nonce`, {
      walletAddress: Keypair.random().publicKey(),
    });
    expect(res.status).toBe(200);
    expect(res.body.nonce).toMatch(/^[0-9a-f]{32}$/);
  });

  it("rejects oversized bodies with 413 and wrong content types with 415", async () => {
    const big = JSON.stringify({ walletAddress: "G".repeat(200_000) });
    const large = await postJson(`${app.url}/api/auth/nonce`, big);
    expect(large.status).toBe(413);
    const form = await fetch(`${app.url}/api/auth/nonce`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "walletAddress=G",
    });
    expect(form.status).toBe(415);
    const { count } = (await sql`select count(*)::int as count from auth_nonces`)[0];
    expect(typeof count).toBe("number");
  });

  it("carries a request id on every response, echoing a sane incoming one", async () => {
    const res = await fetch(`${app.url}/api/auth/session`, {
      headers: { "x-request-id": "trace-12345678" },
    });
    expect(res.headers.get("x-request-id")).toBe("trace-12345678");
    const other = await fetch(`${app.url}/api/nothing-here`);
    expect(other.headers.get("x-request-id")).toMatch(/[0-9a-f-]{36}/);
  });

  it("reports the database as reachable", async () => {
    const res = await getJson(`${app.url}/api/health`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ok", database: "reachable" });
  });
});
