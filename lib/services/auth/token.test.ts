import { Keypair } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { issueSessionToken, readSessionToken } from "./token";

const secret = "test-secret-0123456789abcdef0123456789abcdef";
const now = new Date("2026-01-15T10:00:00Z");

describe("session tokens (lib/services/auth/token.ts)", () => {
  it("a books token names the owner's books beside the member's own wallet, one hour like any", async () => {
    const member = Keypair.random().publicKey();
    const owner = Keypair.random().publicKey();
    const { token, expiresAt } = await issueSessionToken({
      secret,
      wallet: member,
      books: owner,
      now,
    });
    expect(expiresAt.getTime() - now.getTime()).toBe(3_600_000);
    const claims = await readSessionToken({ secret, token, now });
    expect(claims).toMatchObject({ wallet: member, books: owner });
    const plain = await issueSessionToken({ secret, wallet: member, now });
    expect(await readSessionToken({ secret, token: plain.token, now })).not.toHaveProperty("books");
  });

  it("refuses a books claim that is not another valid wallet", async () => {
    const member = Keypair.random().publicKey();
    for (const books of [member, "GNOTAWALLET"]) {
      const { token } = await issueSessionToken({ secret, wallet: member, books, now });
      await expect(readSessionToken({ secret, token, now })).rejects.toThrow(
        "Invalid or expired token",
      );
    }
  });
});
