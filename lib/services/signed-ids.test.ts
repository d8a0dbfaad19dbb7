import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signId, verifySignedId } from "./signed-ids";

const SECRET = "s".repeat(32);
const ID = "abcdefghij0123456789klmn";

describe("signed ids (unsubscribe and checkout document links)", () => {
  it("verifies its own token and keeps the unsubscribe links' format", () => {
    const token = signId(SECRET, "unsubscribe:v1", ID);
    // The links in emails already sent stay valid: the same mac as before the helper.
    const before = createHmac("sha256", SECRET).update(`unsubscribe:v1:${ID}`).digest("base64url");
    expect(token).toBe(`${ID}.${before}`);
    expect(verifySignedId(SECRET, "unsubscribe:v1", token)).toBe(ID);
  });

  it("refuses another purpose, another secret, a changed character, a swapped id", () => {
    const token = signId(SECRET, "documents:v1", ID);
    expect(verifySignedId(SECRET, "unsubscribe:v1", token)).toBeNull();
    expect(verifySignedId("t".repeat(32), "documents:v1", token)).toBeNull();
    const last = token.at(-1) === "A" ? "B" : "A";
    expect(verifySignedId(SECRET, "documents:v1", token.slice(0, -1) + last)).toBeNull();
    const other = "zyxwvutsrq9876543210mlkj";
    expect(verifySignedId(SECRET, "documents:v1", other + token.slice(ID.length))).toBeNull();
    for (const bad of [ID, `${ID}.`, "", ".", `../${token}`]) {
      expect(verifySignedId(SECRET, "documents:v1", bad)).toBeNull();
    }
  });
});
