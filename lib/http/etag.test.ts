import { describe, expect, it } from "vitest";
import { etagOf, noneMatchHits } from "./etag";

describe("etag", () => {
  it("is the same for the same body and differs for another", () => {
    expect(etagOf('{"status":"PENDING"}')).toBe(etagOf('{"status":"PENDING"}'));
    expect(etagOf('{"status":"PENDING"}')).not.toBe(etagOf('{"status":"PAID"}'));
    expect(etagOf("{}")).toMatch(/^W\/"[\w-]+"$/);
  });

  it("matches If-None-Match weakly, in a list, and *", () => {
    const tag = etagOf("{}");
    const opaque = tag.slice(2);
    expect(noneMatchHits(tag, tag)).toBe(true);
    expect(noneMatchHits(opaque, tag)).toBe(true);
    expect(noneMatchHits(`W/"other", ${tag}`, tag)).toBe(true);
    expect(noneMatchHits("*", tag)).toBe(true);
    expect(noneMatchHits('W/"other"', tag)).toBe(false);
    expect(noneMatchHits(null, tag)).toBe(false);
    expect(noneMatchHits("", tag)).toBe(false);
  });
});
