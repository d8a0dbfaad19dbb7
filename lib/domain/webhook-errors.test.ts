import { describe, expect, it } from "vitest";
import {
  DELIVERY_ERROR_PATTERN,
  DELIVERY_ERRORS,
  disabledError,
  httpStatusError,
  publicDeliveryError,
} from "./webhook-errors";

describe("a delivery's lastError", () => {
  it("the fixed set and the two templates match the documented pattern", () => {
    for (const m of Object.values(DELIVERY_ERRORS)) expect(m).toMatch(DELIVERY_ERROR_PATTERN);
    expect(httpStatusError(500)).toMatch(DELIVERY_ERROR_PATTERN);
    expect(disabledError(5)).toMatch(DELIVERY_ERROR_PATTERN);
    expect("ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9").not.toMatch(DELIVERY_ERROR_PATTERN);
  });

  it.each([
    ["ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9", "Connection failed"],
    ["ECONNRESET: read ECONNRESET", "Connection failed"],
    ["Unreachable: the host hooks.internal could not be resolved", "Connection failed"],
    ["EPROTO: 40E8:error:0A00010B:SSL routines:ssl3_get_record:wrong version number", "TLS error"],
    ["CERT_HAS_EXPIRED: certificate has expired", "TLS error"],
    ["timed out after 5000 ms", "Timed out"],
    ["Refused: Webhook URL must be a public https URL: the URL is not allowed", "URL not allowed"],
    ["HTTP 503", "HTTP 503"],
    [null, null],
  ])("an older stored %j reads as %j", (stored, shown) => {
    expect(publicDeliveryError(stored)).toBe(shown);
  });
});
