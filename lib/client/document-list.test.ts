import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  debounce,
  listPath,
  pageRange,
  SEARCH_DEBOUNCE_MS,
  searchOf,
  urlWithSearch,
} from "./document-list";

describe("the document list's API path", () => {
  it("sends the search with the status filter and the sort, trimmed, blanks left out", () => {
    expect(
      listPath("/api/invoices", {
        status: "PENDING",
        currency: "",
        sort: "dueDate:asc",
        q: "  acme march ",
      }),
    ).toBe("/api/invoices?status=PENDING&sort=dueDate%3Aasc&q=acme+march");
  });

  it("is the bare endpoint with nothing to filter, so the list asks as before", () => {
    expect(listPath("/api/quotes", { status: "", q: "   ", network: undefined })).toBe(
      "/api/quotes",
    );
  });

  it("encodes what the user typed (accents, &, =)", () => {
    const path = listPath("/api/quotes", { q: "Müller & Söhne=1" });
    expect(new URL(path, "http://x").searchParams.get("q")).toBe("Müller & Söhne=1");
  });
});

describe("the search in the page's URL", () => {
  it("reads ?q= back, empty when absent", () => {
    expect(searchOf("?q=acme%20corp&x=1")).toBe("acme corp");
    expect(searchOf("")).toBe("");
  });

  it("sets q, keeps the other parameters and the fragment, and removes q when cleared", () => {
    const at = { pathname: "/invoices", search: "?tab=1", hash: "#top" };
    const typed = urlWithSearch(at, " acme ");
    expect(typed).toBe("/invoices?tab=1&q=acme#top");
    const [path, rest] = typed.split("?");
    expect(urlWithSearch({ pathname: path, search: `?${rest.split("#")[0]}` }, "")).toBe(
      "/invoices?tab=1",
    );
    expect(urlWithSearch({ pathname: "/quotes", search: "?q=old" }, "")).toBe("/quotes");
    const accented = new URL(urlWithSearch({ pathname: "/quotes", search: "" }, "Zoë"), "http://x");
    expect(searchOf(accented.search)).toBe("Zoë");
  });
});

describe("the search box's debounce", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks once, with the last text, 250 ms after the last keystroke", () => {
    const asked: string[] = [];
    const d = debounce((v: string) => asked.push(v), SEARCH_DEBOUNCE_MS);
    expect(SEARCH_DEBOUNCE_MS).toBe(250);
    for (const text of ["a", "ac", "acm", "acme"]) {
      d.push(text);
      vi.advanceTimersByTime(100); // typing faster than the pause
    }
    expect(asked).toEqual([]);
    vi.advanceTimersByTime(149);
    expect(asked).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(asked).toEqual(["acme"]);
    vi.advanceTimersByTime(1000);
    expect(asked).toEqual(["acme"]);
  });

  it("flush asks at once (Enter); cancel drops what is pending (cleared, page left)", () => {
    const asked: string[] = [];
    const d = debounce((v: string) => asked.push(v), SEARCH_DEBOUNCE_MS);
    d.push("ac");
    d.flush();
    expect(asked).toEqual(["ac"]);
    d.flush(); // nothing pending: no second request
    expect(asked).toEqual(["ac"]);
    d.push("acme");
    d.cancel();
    vi.advanceTimersByTime(1000);
    expect(asked).toEqual(["ac"]);
  });
});

describe("pageRange", () => {
  it("counts the page within an exact total, and says 'more than' a broad search's bound", () => {
    expect(pageRange({ offset: 20, count: 20, total: 95 })).toBe("21–40 of 95");
    expect(pageRange({ offset: 0, count: 0, total: 0, totalExact: true })).toBe("0–0 of 0");
    expect(pageRange({ offset: 0, count: 20, total: 1000, totalExact: false })).toBe(
      "1–20 of more than 1,000",
    );
  });
});
