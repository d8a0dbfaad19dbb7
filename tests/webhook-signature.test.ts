import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  SIGNATURE_TOLERANCE_SECONDS,
  signatureV2Header,
  signWebhookPayloadV2,
  verifyWebhookSignatureV2,
} from "@/lib/webhooks/sign";

// X-Service-Signature-V2 (docs/decisions.md, Webhooks): t=<unix seconds>,v1=<hex HMAC-SHA256
// of "<t>.<raw body>">, one v1 per signing secret, checked within a 5-minute tolerance.

const secret = `whsec_${"ab".repeat(32)}`;
const oldSecret = `whsec_${"cd".repeat(32)}`;
const body = '{"id":"evt_1","type":"invoice.paid","created":1767225600,"data":{"total":"10.5"}}';
const t = 1_767_225_600;
const at = (seconds: number) => new Date(seconds * 1000);

describe("X-Service-Signature-V2", () => {
  it("is t then the hex HMAC-SHA256 of `<t>.<raw body>`, one v1 per secret in order", () => {
    const v1 = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
    expect(signWebhookPayloadV2(secret, t, body)).toBe(v1);
    expect(signWebhookPayloadV2(secret, t, Buffer.from(body))).toBe(v1);
    expect(signatureV2Header([secret], t, body)).toBe(`t=${t},v1=${v1}`);
    const old = createHmac("sha256", oldSecret).update(`${t}.${body}`).digest("hex");
    expect(signatureV2Header([secret, oldSecret], t, body)).toBe(`t=${t},v1=${v1},v1=${old}`);
  });

  it("verifies within the 5-minute tolerance and not outside it", () => {
    expect(SIGNATURE_TOLERANCE_SECONDS).toBe(300);
    const header = signatureV2Header([secret], t, body);
    expect(verifyWebhookSignatureV2(secret, body, header, { now: at(t) })).toBe(true);
    expect(verifyWebhookSignatureV2(secret, body, header, { now: at(t + 300) })).toBe(true);
    expect(verifyWebhookSignatureV2(secret, body, header, { now: at(t - 300) })).toBe(true);
    expect(verifyWebhookSignatureV2(secret, body, header, { now: at(t + 301) })).toBe(false);
    expect(verifyWebhookSignatureV2(secret, body, header, { now: at(t - 301) })).toBe(false);
    expect(
      verifyWebhookSignatureV2(secret, body, header, { now: at(t + 600), toleranceSeconds: 600 }),
    ).toBe(true);
  });

  it("a replayed body with a new t, a changed body or another secret does not verify", () => {
    const header = signatureV2Header([secret], t, body);
    const now = { now: at(t + 1000) };
    // The attacker can change t but not the HMAC that covers it.
    const replayed = header.replace(`t=${t}`, `t=${t + 1000}`);
    expect(verifyWebhookSignatureV2(secret, body, replayed, now)).toBe(false);
    expect(
      verifyWebhookSignatureV2(secret, body.replace("10.5", "99.5"), header, { now: at(t) }),
    ).toBe(false);
    expect(verifyWebhookSignatureV2(secret, `${body} `, header, { now: at(t) })).toBe(false);
    expect(verifyWebhookSignatureV2(oldSecret, body, header, { now: at(t) })).toBe(false);
  });

  it("accepts any of several v1 values and any of several secrets (rotation)", () => {
    const both = signatureV2Header([secret, oldSecret], t, body);
    const now = { now: at(t) };
    expect(verifyWebhookSignatureV2(secret, body, both, now)).toBe(true);
    expect(verifyWebhookSignatureV2(oldSecret, body, both, now)).toBe(true);
    expect(verifyWebhookSignatureV2([oldSecret, secret], body, both, now)).toBe(true);
    const onlyNew = signatureV2Header([secret], t, body);
    expect(verifyWebhookSignatureV2([oldSecret, secret], body, onlyNew, now)).toBe(true);
    expect(verifyWebhookSignatureV2([oldSecret], body, onlyNew, now)).toBe(false);
    // Entry order and spaces do not matter; unknown schemes are ignored.
    const v1 = signWebhookPayloadV2(secret, t, body);
    expect(verifyWebhookSignatureV2(secret, body, `v0=abc, v1=${v1}, t=${t}`, now)).toBe(true);
  });

  it("rejects missing or malformed headers without throwing", () => {
    const v1 = signWebhookPayloadV2(secret, t, body);
    const now = { now: at(t) };
    for (const header of [
      undefined,
      null,
      "",
      `v1=${v1}`,
      `t=${t}`,
      `t=${t},v1=`,
      `t=${t},v1=${v1.slice(2)}`,
      `t=${t},v1=${"zz".repeat(32)}`,
      `t=${t},v0=${v1}`,
      `t=abc,v1=${v1}`,
      `t=-${t},v1=${v1}`,
      `t=${t}.5,v1=${v1}`,
      v1,
    ]) {
      expect(verifyWebhookSignatureV2(secret, body, header, now)).toBe(false);
    }
    expect(verifyWebhookSignatureV2([], body, `t=${t},v1=${v1}`, now)).toBe(false);
  });
});
