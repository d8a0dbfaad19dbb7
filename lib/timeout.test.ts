import { describe, expect, it } from "vitest";
import { withTimeout } from "./timeout";

const late = <T>(value: T, ms: number) => new Promise<T>((r) => setTimeout(() => r(value), ms));

describe("withTimeout", () => {
  it("passes a value or an error through when in time", async () => {
    await expect(withTimeout(late(7, 5), 200, () => new Error("slow"))).resolves.toBe(7);
    await expect(
      withTimeout(Promise.reject(new Error("own")), 200, () => new Error("slow")),
    ).rejects.toThrow("own");
  });

  it("rejects with the given error when late", async () => {
    await expect(withTimeout(late(7, 300), 20, () => new Error("slow"))).rejects.toThrow("slow");
  });
});
