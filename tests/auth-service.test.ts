import { Keypair } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { createSession } from "@/lib/services/auth/create-session";
import { INVALID_SIGNATURE } from "@/lib/services/auth/messages";
import { createNonce, deleteExpiredNonces } from "@/lib/services/auth/nonce";
import type { ServiceContext } from "@/lib/services/context";
import { signMessage } from "./helpers/auth";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";

// The nonce lifetime with an injected clock, on real PostgreSQL.
let handle: DatabaseHandle;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let clock = new Date("2026-03-01T12:00:00.000Z");

const ctx = (): ServiceContext => testContext(handle, db.url, () => clock);

beforeAll(async () => {
  db = await createTestDatabase();
  handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
});

afterAll(async () => {
  await handle?.close();
  await db?.drop();
});

describe("nonce lifetime (clock injected)", () => {
  it("accepts a nonce at 299 s and refuses one at 300 s", async () => {
    const kp = Keypair.random();
    const mode = { digest: "raw", encoding: "hex" } as const;

    clock = new Date("2026-03-01T12:00:00.000Z");
    const early = await createNonce(ctx(), { walletAddress: kp.publicKey() });
    expect(early.message).toContain("Timestamp: 2026-03-01T12:00:00.000Z");
    clock = new Date("2026-03-01T12:04:59.999Z");
    const ok = await createSession(ctx(), {
      walletAddress: kp.publicKey(),
      nonce: early.nonce,
      signature: signMessage(kp, early.message, mode),
    });
    expect(ok.walletAddress).toBe(kp.publicKey());
    expect(ok.expiresAt).toBe("2026-03-01T13:04:59.000Z");

    clock = new Date("2026-03-01T12:00:00.000Z");
    const late = await createNonce(ctx(), { walletAddress: kp.publicKey() });
    clock = new Date("2026-03-01T12:05:00.000Z");
    await expect(
      createSession(ctx(), {
        walletAddress: kp.publicKey(),
        nonce: late.nonce,
        signature: signMessage(kp, late.message, mode),
      }),
    ).rejects.toThrow(INVALID_SIGNATURE);
  });

  it("housekeeping deletes only expired nonces", async () => {
    clock = new Date("2026-04-01T00:00:00.000Z");
    const kp = Keypair.random();
    await createNonce(ctx(), { walletAddress: kp.publicKey() });
    clock = new Date("2026-04-01T00:04:00.000Z");
    const fresh = await createNonce(ctx(), { walletAddress: kp.publicKey() });
    clock = new Date("2026-04-01T00:06:00.000Z");
    expect(await deleteExpiredNonces(ctx())).toBeGreaterThanOrEqual(1);
    const session = await createSession(ctx(), {
      walletAddress: kp.publicKey(),
      nonce: fresh.nonce,
      signature: signMessage(kp, fresh.message, { digest: "sep53", encoding: "hex" }),
    });
    expect(session.token).toBeTruthy();
  });
});
