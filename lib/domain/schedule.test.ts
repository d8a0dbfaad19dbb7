import { describe, expect, it } from "vitest";
import {
  firstPeriodFrom,
  isoDay,
  nextRunAt,
  periodDate,
  periodDueDate,
  periodExists,
  type Schedule,
} from "./schedule";

const day = (s: string) => new Date(`${s}T00:00:00Z`);
const dates = (s: Schedule, n: number) =>
  Array.from({ length: n }, (_, i) => isoDay(periodDate(s, i)));

describe("periodDate", () => {
  it("monthly from Jan 31 follows the calendar's month ends, 13 periods, no drift", () => {
    const s: Schedule = { interval: "month", intervalCount: 1, startDate: day("2027-01-31") };
    expect(dates(s, 13)).toEqual([
      "2027-01-31",
      "2027-02-28",
      "2027-03-31",
      "2027-04-30",
      "2027-05-31",
      "2027-06-30",
      "2027-07-31",
      "2027-08-31",
      "2027-09-30",
      "2027-10-31",
      "2027-11-30",
      "2027-12-31",
      "2028-01-31",
    ]);
    // Leap year: Feb 29.
    expect(isoDay(periodDate(s, 13))).toBe("2028-02-29");
  });

  it("the anchor day comes back after a short month (Jan 30 -> Feb 28 -> Mar 30)", () => {
    const s: Schedule = { interval: "month", intervalCount: 1, startDate: day("2027-01-30") };
    expect(dates(s, 3)).toEqual(["2027-01-30", "2027-02-28", "2027-03-30"]);
  });

  it("weeks, quarters, years and intervalCount", () => {
    expect(dates({ interval: "week", intervalCount: 2, startDate: day("2027-12-20") }, 3)).toEqual([
      "2027-12-20",
      "2028-01-03",
      "2028-01-17",
    ]);
    expect(
      dates({ interval: "quarter", intervalCount: 1, startDate: day("2027-11-30") }, 4),
    ).toEqual(["2027-11-30", "2028-02-29", "2028-05-30", "2028-08-30"]);
    expect(dates({ interval: "year", intervalCount: 1, startDate: day("2028-02-29") }, 3)).toEqual([
      "2028-02-29",
      "2029-02-28",
      "2030-02-28",
    ]);
    expect(dates({ interval: "month", intervalCount: 5, startDate: day("2027-10-31") }, 3)).toEqual(
      ["2027-10-31", "2028-03-31", "2028-08-31"],
    );
  });

  it("refuses a negative or fractional period", () => {
    const s: Schedule = { interval: "week", intervalCount: 1, startDate: day("2027-01-01") };
    expect(() => periodDate(s, -1)).toThrow(RangeError);
    expect(() => periodDate(s, 1.5)).toThrow(RangeError);
  });
});

describe("limits", () => {
  const base: Schedule = { interval: "month", intervalCount: 1, startDate: day("2027-01-31") };

  it("count: periods 0..count-1 exist", () => {
    const s = { ...base, count: 3 };
    expect([0, 1, 2, 3].map((n) => periodExists(s, n))).toEqual([true, true, true, false]);
    expect(nextRunAt(s, 3)).toBeNull();
    expect(nextRunAt(s, 2)?.toISOString()).toBe("2027-03-31T00:00:00.000Z");
  });

  it("endDate is inclusive", () => {
    const s = { ...base, endDate: day("2027-03-31") };
    expect([0, 1, 2, 3].map((n) => periodExists(s, n))).toEqual([true, true, true, false]);
    expect(periodExists({ ...base, endDate: day("2027-03-30") }, 2)).toBe(false);
  });

  it("no limit: runs on", () => {
    expect(periodExists(base, 500)).toBe(true);
  });
});

describe("firstPeriodFrom", () => {
  const s: Schedule = { interval: "month", intervalCount: 1, startDate: day("2027-01-31") };
  it("the first period on or after a date", () => {
    expect(firstPeriodFrom(s, day("2027-01-31"))).toBe(0);
    expect(firstPeriodFrom(s, new Date("2027-01-31T00:00:00.001Z"))).toBe(1);
    expect(firstPeriodFrom(s, day("2027-04-15"))).toBe(3);
    expect(firstPeriodFrom(s, day("2027-04-15"), 5)).toBe(5);
  });
});

describe("periodDueDate", () => {
  it("dueInDays after the period, or after the creation day when created late", () => {
    expect(isoDay(periodDueDate(day("2027-01-31"), 14, new Date("2027-01-31T08:00:00Z")))).toBe(
      "2027-02-14",
    );
    expect(isoDay(periodDueDate(day("2027-01-31"), 0, new Date("2027-01-31T08:00:00Z")))).toBe(
      "2027-01-31",
    );
    expect(isoDay(periodDueDate(day("2027-01-31"), 14, new Date("2027-03-02T08:00:00Z")))).toBe(
      "2027-03-16",
    );
  });
});
