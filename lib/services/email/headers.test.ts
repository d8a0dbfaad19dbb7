import { describe, expect, it } from "vitest";
import { parseConfig, parseMailbox } from "@/lib/config";
import { retryAt } from "./deliver";
import { assertSafeHeaders, isSingleAddress, oneLine } from "./outbox";

describe("email header safety (docs/decisions.md, Email)", () => {
  it("a recipient is one plain address", () => {
    expect(isSingleAddress("ada@example.com")).toBe(true);
    for (const bad of [
      "ada@example.com\r\nBcc: evil@x.example",
      "ada@example.com\nBcc: evil@x.example",
      "a@x.example, b@x.example",
      "a@x.example;b@x.example",
      "Ada <ada@example.com>",
      "ada",
      "",
    ]) {
      expect(isSingleAddress(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it("a subject is one line", () => {
    expect(() => assertSafeHeaders({ to: "a@x.example", subject: "Invoice INV-1" })).not.toThrow();
    expect(() =>
      assertSafeHeaders({ to: "a@x.example", subject: "Hi\r\nBcc: e@x.example" }),
    ).toThrow("The subject must be one line");
    expect(oneLine("Eve\r\nBcc:  evil@x.example\t")).toBe("Eve Bcc: evil@x.example");
  });

  it("EMAIL_FROM is one mailbox; the default is SERVICE_NAME at no-reply@ APP_URL's host", () => {
    expect(parseMailbox("Billing <billing@example.com>")).toEqual({
      name: "Billing",
      address: "billing@example.com",
    });
    expect(parseMailbox("billing@example.com")).toEqual({
      name: "",
      address: "billing@example.com",
    });
    expect(parseMailbox("a@x.example, b@x.example")).toBeNull();
    expect(parseMailbox("A <a@x.example>\r\nBcc: b@x.example")).toBeNull();
    const base = { JWT_SECRET: "s".repeat(40), APP_URL: "https://pay.example.com" };
    expect(parseConfig(base).email).toEqual({
      smtpUrl: undefined,
      from: { name: "Stellar Invoicing", address: "no-reply@pay.example.com" },
    });
    expect(() => parseConfig({ ...base, SMTP_URL: "http://mail.example.com" })).toThrow(/SMTP_URL/);
    expect(() => parseConfig({ ...base, EMAIL_FROM: "a@x.example, b@x.example" })).toThrow(
      /EMAIL_FROM/,
    );
  });
});

describe("retry schedule", () => {
  const createdAt = new Date("2026-06-01T00:00:00.000Z");
  const at = (ms: number) => new Date(createdAt.getTime() + ms);
  it("doubles from a minute, at most an hour, never past 24 h after queueing", () => {
    expect(retryAt({ attempts: 1, createdAt }, createdAt)).toEqual(at(60_000));
    expect(retryAt({ attempts: 3, createdAt }, createdAt)).toEqual(at(240_000));
    expect(retryAt({ attempts: 12, createdAt }, createdAt)).toEqual(at(3_600_000));
    expect(retryAt({ attempts: 30, createdAt }, at(23.5 * 3_600_000))).toEqual(at(24 * 3_600_000));
    expect(retryAt({ attempts: 31, createdAt }, at(24 * 3_600_000))).toBeNull();
  });
});
