import { describe, expect, it } from "vitest";
import {
  assertDueDateNotPast,
  DUE_DATE_IN_PAST,
  dueDateExpiresAt,
  expiredDueDatesBefore,
  isExpired,
  parseDueDate,
} from "./due-date";
import { ValidationError } from "./errors";

describe("due dates", () => {
  it("a due date D expires at D+1 00:00 UTC", () => {
    const expiresAt = dueDateExpiresAt(new Date("2026-03-15T00:00:00.000Z"));
    expect(expiresAt.toISOString()).toBe("2026-03-16T00:00:00.000Z");
  });

  it("ignores the time of day of the due date", () => {
    expect(dueDateExpiresAt(new Date("2026-03-15T23:59:59.999Z")).toISOString()).toBe(
      "2026-03-16T00:00:00.000Z",
    );
    expect(dueDateExpiresAt(new Date("2026-03-15T12:00:00+05:00")).toISOString()).toBe(
      "2026-03-16T00:00:00.000Z",
    );
  });

  it("crosses month, year and leap-day boundaries", () => {
    expect(dueDateExpiresAt(new Date("2026-12-31T00:00:00Z")).toISOString()).toBe(
      "2027-01-01T00:00:00.000Z",
    );
    expect(dueDateExpiresAt(new Date("2028-02-28T00:00:00Z")).toISOString()).toBe(
      "2028-02-29T00:00:00.000Z",
    );
  });

  it("is not expired a millisecond before D+1 00:00 UTC, and is at it", () => {
    const dueDate = new Date("2026-03-15T00:00:00.000Z");
    expect(isExpired(dueDate, new Date("2026-03-15T23:59:59.999Z"))).toBe(false);
    expect(isExpired(dueDate, new Date("2026-03-16T00:00:00.000Z"))).toBe(true);
    expect(isExpired(dueDate, new Date("2026-03-20T00:00:00.000Z"))).toBe(true);
    expect(isExpired(dueDate, new Date("2026-03-15T00:00:00.000Z"))).toBe(false);
  });

  it("never expires without a due date, and refuses invalid dates", () => {
    expect(isExpired(null, new Date())).toBe(false);
    expect(isExpired(undefined, new Date())).toBe(false);
    expect(() => dueDateExpiresAt(new Date("nope"))).toThrow(RangeError);
  });
});

describe("parseDueDate", () => {
  it("keeps the UTC date as 00:00 UTC", () => {
    expect(parseDueDate("2026-03-15")?.toISOString()).toBe("2026-03-15T00:00:00.000Z");
    expect(parseDueDate("2026-03-15T23:30:00Z")?.toISOString()).toBe("2026-03-15T00:00:00.000Z");
    // 01:00 at +02:00 is still the 14th in UTC.
    expect(parseDueDate("2026-03-15T01:00:00+02:00")?.toISOString()).toBe(
      "2026-03-14T00:00:00.000Z",
    );
  });

  it("refuses anything that is not an ISO 8601 date", () => {
    for (const value of ["", "15/03/2026", "2026-3-15", "2026-13-45", "2026-03-15T10:00", "soon"]) {
      expect(parseDueDate(value), value).toBeNull();
    }
  });
});

describe("due dates in the past", () => {
  const now = new Date("2026-03-15T18:00:00.000Z");

  it("today (UTC) is allowed, yesterday is not", () => {
    expect(() => assertDueDateNotPast(new Date("2026-03-15T00:00:00Z"), now)).not.toThrow();
    expect(() => assertDueDateNotPast(null, now)).not.toThrow();
    let thrown: unknown;
    try {
      assertDueDateNotPast(new Date("2026-03-14T00:00:00Z"), now);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).details).toEqual({ dueDate: DUE_DATE_IN_PAST });
  });

  it("the SQL cutoff selects exactly the expired due dates", () => {
    const cutoff = expiredDueDatesBefore(now);
    for (const day of ["2026-03-13", "2026-03-14", "2026-03-15", "2026-03-16"]) {
      const dueDate = new Date(`${day}T00:00:00Z`);
      expect(dueDate.getTime() < cutoff.getTime(), day).toBe(isExpired(dueDate, now));
    }
  });
});
