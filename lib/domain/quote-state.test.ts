import { describe, expect, it } from "vitest";
import { BusinessRuleError, ConflictError } from "./errors";
import {
  defaultValidUntil,
  formatQuoteNumber,
  ONLY_DRAFT_QUOTE,
  QUOTE_EXPIRED,
  QUOTE_STATUSES,
  QUOTE_TRIGGERS,
  quoteAllows,
  quoteHasExpired,
  quoteTransition,
  shownQuoteStatus,
} from "./quote-state";

// The quote lifecycle (docs/decisions.md, Quotes): every (trigger, status) pair.
describe("quote state machine", () => {
  it("allows exactly the documented moves", () => {
    const allowed = QUOTE_TRIGGERS.flatMap((trigger) =>
      QUOTE_STATUSES.filter((s) => quoteAllows(s, trigger)).map((s) => {
        const m = quoteTransition(s, trigger);
        return `${trigger}: ${s} -> ${m.to} (${m.audit}, ${m.event})`;
      }),
    );
    expect(allowed).toEqual([
      "update: DRAFT -> DRAFT (UPDATED, null)",
      "delete: DRAFT -> DRAFT (DELETED, null)",
      "send: DRAFT -> SENT (SENT, quote.sent)",
      "accept: SENT -> ACCEPTED (ACCEPTED, quote.accepted)",
      "convert: ACCEPTED -> CONVERTED (CONVERTED, null)",
      "decline: SENT -> DECLINED (DECLINED, quote.declined)",
      "expire: SENT -> EXPIRED (EXPIRED, null)",
    ]);
  });

  it("refuses the owner's edits after DRAFT with a 400 and the client's answers with a 409", () => {
    for (const s of QUOTE_STATUSES.filter((s) => s !== "DRAFT")) {
      expect(() => quoteTransition(s, "update")).toThrow(BusinessRuleError);
      expect(() => quoteTransition(s, "delete")).toThrow(ONLY_DRAFT_QUOTE);
      expect(() => quoteTransition(s, "send")).toThrow(
        `Quote cannot be sent. Current status: ${s}`,
      );
    }
    for (const s of QUOTE_STATUSES.filter((s) => s !== "SENT")) {
      expect(() => quoteTransition(s, "accept")).toThrow(ConflictError);
      expect(() => quoteTransition(s, "decline")).toThrow(ConflictError);
    }
    expect(() => quoteTransition("CONVERTED", "accept")).toThrow(
      "This quote can no longer be accepted. Current status: CONVERTED",
    );
    expect(() => quoteTransition("EXPIRED", "accept")).toThrow(QUOTE_EXPIRED);
    expect(() => quoteTransition("DRAFT", "convert")).toThrow(
      "Quote move convert refused from DRAFT",
    );
  });

  it("expiry is a no-op anywhere but SENT, so it is safe to run twice", () => {
    for (const s of QUOTE_STATUSES.filter((s) => s !== "SENT")) {
      expect(quoteTransition(s, "expire")).toEqual({ from: s, to: s, audit: null, event: null });
    }
  });

  it("a quote is open through the whole of its validUntil day (UTC)", () => {
    expect(quoteHasExpired("2026-12-31", new Date("2026-12-31T23:59:59.999Z"))).toBe(false);
    expect(quoteHasExpired("2026-12-31", new Date("2027-01-01T00:00:00.000Z"))).toBe(true);
    expect(shownQuoteStatus("SENT", "2026-12-31", new Date("2027-01-01T00:00:00Z"))).toBe(
      "EXPIRED",
    );
    expect(shownQuoteStatus("CONVERTED", "2026-12-31", new Date("2027-01-01T00:00:00Z"))).toBe(
      "CONVERTED",
    );
    expect(defaultValidUntil(new Date("2026-11-28T10:00:00Z"))).toBe("2026-12-28");
  });

  it("numbers quotes QT-0001 on", () => {
    expect(formatQuoteNumber(1)).toBe("QT-0001");
    expect(formatQuoteNumber(12345n)).toBe("QT-12345");
    expect(() => formatQuoteNumber(0)).toThrow(RangeError);
  });
});
