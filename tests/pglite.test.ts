import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Keypair } from "@stellar/stellar-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { client, invoiceBody } from "./helpers/api";
import { startApp, startAppExpectingFailure } from "./helpers/app";
import { getJson, postJson, requestNonce, signIn, signMessage } from "./helpers/auth";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-test-"));

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("embedded PGlite (no DATABASE_URL)", () => {
  it("starts, migrates, serves sign-in and keeps its data across a restart", async () => {
    const env = { DATABASE_URL: undefined, DATA_DIR: dataDir, JWT_SECRET: undefined };
    const first = await startApp(env);
    const kp = Keypair.random();
    let pending: { nonce: string; message: string };
    let token: string;
    try {
      ({ token } = await signIn(first.url, kp));
      expect(
        (await getJson(`${first.url}/api/auth/session`, { authorization: `Bearer ${token}` }))
          .status,
      ).toBe(200);
      // Issued before the restart, used after it: proves the row was persisted.
      pending = await requestNonce(first.url, kp.publicKey());
      const created = await client(first.url, token).post("/api/invoices", invoiceBody());
      expect(created.body.invoiceNumber).toBe("INV-0001");
    } finally {
      await first.stop();
    }
    expect(fs.existsSync(path.join(dataDir, "pg"))).toBe(true);
    expect(fs.readFileSync(path.join(dataDir, "jwt-secret"), "utf8").trim()).toMatch(
      /^[0-9a-f]{64}$/,
    );

    const second = await startApp(env);
    try {
      const health = await getJson(`${second.url}/api/health`);
      expect(health.body.database).toBe("reachable");
      const res = await postJson(`${second.url}/api/auth/session`, {
        walletAddress: kp.publicKey(),
        nonce: pending.nonce,
        signature: signMessage(kp, pending.message, { digest: "sep53", encoding: "base64" }),
      });
      expect(res.status).toBe(200);
      // The generated secret was kept too: the token from before the restart still works.
      const me = await getJson(`${second.url}/api/auth/session`, {
        authorization: `Bearer ${token}`,
      });
      expect(me.status).toBe(200);
      expect(me.body.walletAddress).toBe(kp.publicKey());
      // The wallet's numbers go on from where they were: no values lost to the restart.
      const next = await client(second.url, token).post("/api/invoices", invoiceBody());
      expect(next.body.invoiceNumber).toBe("INV-0002");
    } finally {
      await second.stop();
    }
  });
});

describe("start-up configuration", () => {
  it("a bad value stops start-up with a message naming the variable", async () => {
    const { code, output } = await startAppExpectingFailure({
      DATA_DIR: dataDir,
      HORIZON_TESTNET_URL: "not-a-url",
    });
    expect(code).toBe(1);
    expect(output).toContain("HORIZON_TESTNET_URL");
  });

  it("a deployment without JWT_SECRET does not start", async () => {
    const { code, output } = await startAppExpectingFailure({
      DATABASE_URL: "postgres://127.0.0.1:1/none",
    });
    expect(code).toBe(1);
    expect(output).toContain("JWT_SECRET");
  });
});
