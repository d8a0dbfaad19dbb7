import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhookBody, verifyWebhookSignature } from "./sign";

const secret = `whsec_${"ab".repeat(32)}`;
const body =
  '{"id":"evt_1","type":"invoice.paid","created":1767225600,"data":{"total":"10.5000000"}}';

describe("webhook signatures", () => {
  it("is the lowercase hex HMAC-SHA256 of the raw bytes", () => {
    const expected = createHmac("sha256", secret).update(body).digest("hex");
    expect(signWebhookBody(secret, body)).toBe(expected);
    expect(signWebhookBody(secret, Buffer.from(body))).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it("verifies the exact body and nothing else", () => {
    const sig = signWebhookBody(secret, body);
    expect(verifyWebhookSignature(secret, body, sig)).toBe(true);
    expect(verifyWebhookSignature(secret, body, sig.toUpperCase())).toBe(true);
    expect(verifyWebhookSignature(secret, body.replace("10.5", "99.5"), sig)).toBe(false);
    // Re-serialising changes bytes (here whitespace): verify the raw body, not parsed JSON.
    expect(verifyWebhookSignature(secret, JSON.stringify(JSON.parse(body), null, 1), sig)).toBe(
      false,
    );
    expect(verifyWebhookSignature(`${secret}x`, body, sig)).toBe(false);
  });

  it("rejects missing or malformed signatures without throwing", () => {
    expect(verifyWebhookSignature(secret, body, undefined)).toBe(false);
    expect(verifyWebhookSignature(secret, body, null)).toBe(false);
    expect(verifyWebhookSignature(secret, body, "")).toBe(false);
    expect(verifyWebhookSignature(secret, body, "zz".repeat(32))).toBe(false);
    expect(verifyWebhookSignature(secret, body, "ab".repeat(31))).toBe(false);
    expect(verifyWebhookSignature(secret, body, `sha256=${signWebhookBody(secret, body)}`)).toBe(
      false,
    );
  });
});
