import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import {
  type Column,
  csvLines,
  EXPORT_PAGE_SIZE,
  headerLine,
  keysetPages,
  neutralise,
  pageOf,
} from "./csv";

describe("CSV cells and lines", () => {
  it("neutralises what a spreadsheet would run, and nothing else", () => {
    for (const cell of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) {
      expect(neutralise(cell)).toBe(`'${cell}`);
    }
    for (const cell of ["1.5000000", "2026-01-01T00:00:00.000Z", " =1", "'x", "a=b", "", "é"]) {
      expect(neutralise(cell)).toBe(cell);
    }
    expect(neutralise(null)).toBe("");
  });

  it("writes RFC 4180: CRLF records, quoted commas, quotes and line breaks", () => {
    const columns: Column<{ a: string; b: string | null }>[] = [
      ["a", (r) => r.a],
      ["b", (r) => r.b],
    ];
    const text =
      headerLine(columns) +
      csvLines(columns, [
        { a: 'say "hi", bye', b: null },
        { a: "two\nlines", b: "=x" },
        { a: "lone\rreturn", b: "ok" },
      ]);
    expect(text).toBe('a,b\r\n"say ""hi"", bye",\r\n"two\nlines",\'=x\r\n"lone\rreturn",ok\r\n');
    expect(parse(text, { columns: true })).toEqual([
      { a: 'say "hi", bye', b: "" },
      { a: "two\nlines", b: "'=x" },
      { a: "lone\rreturn", b: "ok" },
    ]);
  });

  it("walks keyset pages until a read comes back short", async () => {
    const all = Array.from({ length: EXPORT_PAGE_SIZE * 2 + 3 }, (_, i) => i);
    const seen: (number | null)[] = [];
    const pages = keysetPages(async (after: number | null) => {
      seen.push(after);
      const start = after === null ? 0 : after + 1;
      return pageOf(all.slice(start, start + EXPORT_PAGE_SIZE), (n) => n);
    });
    const got: number[] = [];
    for await (const page of pages) got.push(...page);
    expect(got).toEqual(all);
    expect(seen).toEqual([null, EXPORT_PAGE_SIZE - 1, 2 * EXPORT_PAGE_SIZE - 1]);
  });
});
