import { Keypair } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { INVALID_TOKEN } from "@/lib/services/auth/messages";
import { revokeAllSessions, revokeSession } from "@/lib/services/auth/sessions";
import { issueSessionToken, verifySessionToken } from "@/lib/services/auth/token";
import type { ServiceContext } from "@/lib/services/context";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";

/**
 * Verified tokens are remembered per instance until they expire (docs/decisions.md,
 * Authentication): what the cache answers must be what a fresh verification would.
 */
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let handle: DatabaseHandle;
let clock = new Date("2026-04-01T09:00:00.000Z");

beforeAll(async () => {
  db = await createTestDatabase();
  handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
});

afterAll(async () => {
  await handle?.close();
  await db?.drop();
});

const ctx = (env: Record<string, string> = {}): ServiceContext =>
  testContext(handle, db.url, () => clock, env);

describe("verified tokens, remembered", () => {
  it("a remembered token is still refused once it expires, on the second", async () => {
    clock = new Date("2026-04-01T09:00:00.700Z");
    const wallet = Keypair.random().publicKey();
    const { token } = await issueSessionToken({
      secret: ctx().config.jwtSecret,
      wallet,
      now: clock,
    });
    for (let i = 0; i < 3; i++) expect(await verifySessionToken(ctx(), token)).toBe(wallet);
    clock = new Date("2026-04-01T09:59:59.999Z");
    expect(await verifySessionToken(ctx(), token)).toBe(wallet);
    clock = new Date("2026-04-01T10:00:00.000Z");
    await expect(verifySessionToken(ctx(), token)).rejects.toThrow(INVALID_TOKEN);
    await expect(verifySessionToken(ctx(), token)).rejects.toThrow(INVALID_TOKEN);
  });

  it("a remembered token is refused under another JWT_SECRET", async () => {
    clock = new Date("2026-04-01T09:00:00.000Z");
    const wallet = Keypair.random().publicKey();
    const { token } = await issueSessionToken({
      secret: ctx().config.jwtSecret,
      wallet,
      now: clock,
    });
    expect(await verifySessionToken(ctx(), token)).toBe(wallet);
    const other = ctx({ JWT_SECRET: "o".repeat(40) });
    await expect(verifySessionToken(other, token)).rejects.toThrow(INVALID_TOKEN);
    expect(await verifySessionToken(ctx(), token)).toBe(wallet);
  });

  it("sign-out and sign out everywhere refuse a remembered token at once", async () => {
    clock = new Date("2026-04-01T09:00:00.000Z");
    const wallet = Keypair.random().publicKey();
    const one = await issueSessionToken({ secret: ctx().config.jwtSecret, wallet, now: clock });
    const c = ctx();
    expect(await verifySessionToken(c, one.token)).toBe(wallet);
    expect(await verifySessionToken(ctx(), one.token)).toBe(wallet);
    await revokeSession(c, c.session as NonNullable<typeof c.session>);
    await expect(verifySessionToken(ctx(), one.token)).rejects.toThrow(INVALID_TOKEN);

    const two = await issueSessionToken({ secret: ctx().config.jwtSecret, wallet, now: clock });
    expect(await verifySessionToken(ctx(), two.token)).toBe(wallet);
    clock = new Date("2026-04-01T09:00:01.000Z");
    await revokeAllSessions(ctx(), wallet);
    await expect(verifySessionToken(ctx(), two.token)).rejects.toThrow(INVALID_TOKEN);
  });

  it("a token changed by one character is checked, not taken from memory", async () => {
    clock = new Date("2026-04-01T09:00:00.000Z");
    const wallet = Keypair.random().publicKey();
    const { token } = await issueSessionToken({
      secret: ctx().config.jwtSecret,
      wallet,
      now: clock,
    });
    expect(await verifySessionToken(ctx(), token)).toBe(wallet);
    // Not the last character: its low bits are padding, and changing them changes nothing.
    const at = token.length - 5;
    const forged = token.slice(0, at) + (token[at] === "A" ? "B" : "A") + token.slice(at + 1);
    await expect(verifySessionToken(ctx(), forged)).rejects.toThrow(INVALID_TOKEN);
  });
});
