import { describe, expect, it } from "vitest";
import { formatRate } from "./format";

describe("formatRate: exchange rates to at most 6 significant digits (issue 28, item 22)", () => {
  it.each([
    ["0.115740740", "0.115741"],
    ["0.1157000", "0.1157"],
    ["1.0800000", "1.08"],
    ["0.9250000", "0.925"],
    ["8.6400000000", "8.64"],
    ["8.6393088552", "8.63931"],
    ["0.0012345678", "0.00123457"],
    ["1234.5678", "1,234.57"],
    ["1234567.89", "1,234,568"],
    ["0", "0"],
  ])("%s -> %s", (rate, shown) => {
    expect(formatRate(rate)).toBe(shown);
  });
});
