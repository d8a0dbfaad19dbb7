import { describe, expect, it } from "vitest";
import { responseText, textResponse } from "./response-text";

describe("textResponse", () => {
  it("keeps its text for the front and still reads as a normal Response", async () => {
    const r = textResponse('{"a":"é"}', {
      status: 201,
      headers: { "content-type": "application/json" },
    });
    expect(responseText(r)).toBe('{"a":"é"}');
    expect(r.status).toBe(201);
    expect(await r.json()).toEqual({ a: "é" });
  });

  it("gives no text once the body has been read, nor for other responses", async () => {
    const r = textResponse("x", { status: 200 });
    await r.text();
    expect(responseText(r)).toBeUndefined();
    expect(responseText(new Response("x"))).toBeUndefined();
  });
});
