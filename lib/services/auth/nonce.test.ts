import { describe, expect, it } from "vitest";
import { buildSignInMessage } from "./nonce";

describe("sign-in message", () => {
  it("is the spec's four lines in the spec's order, then URI fifth", () => {
    const message = buildSignInMessage({
      serviceName: "Stellar Invoicing",
      appUrl: "https://invoices.example.com",
      wallet: "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H",
      nonce: "9f86d081884c7d659a2feaa0c55ad015",
      timestamp: new Date("2026-01-15T10:30:00.000Z"),
    });
    expect(message.split("\n")).toEqual([
      "Stellar Invoicing Authentication",
      "Wallet: GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H",
      "Nonce: 9f86d081884c7d659a2feaa0c55ad015",
      "Timestamp: 2026-01-15T10:30:00.000Z",
      "URI: https://invoices.example.com",
    ]);
  });
});
