import { describe, expect, it } from "vitest";
import type { HorizonAccount } from "@/lib/stellar/read";
import { describeProblem, payerSideError, problemOf } from "./recipient-readiness";

const ISSUER = "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5";
const OTHER = "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN";
const USDC = { code: "USDC" as const, issuer: ISSUER };
const XLM = { code: "XLM" as const, issuer: null };

const account = (...lines: Partial<HorizonAccount["balances"][number]>[]): HorizonAccount => ({
  id: "GABC",
  sequence: "1",
  balances: [
    ...lines.map((l) => ({
      asset_type: "credit_alphanum4",
      asset_code: "USDC",
      asset_issuer: ISSUER,
      balance: "0.0000000",
      limit: "922337203685.4775807",
      ...l,
    })),
    { asset_type: "native", balance: "10.0000000" },
  ],
});

describe("problemOf (docs/decisions.md, Recipient readiness)", () => {
  it("no account; XLM needs only the account", () => {
    expect(problemOf(null, XLM, "1")).toEqual({ problem: "no_account" });
    expect(problemOf(account(), XLM, "1000000")).toBeNull();
  });

  it("a trustline to the trusted issuer only", () => {
    expect(problemOf(account({ asset_issuer: OTHER }), USDC, "1")).toEqual({
      problem: "no_trustline",
    });
    expect(problemOf(account({}), USDC, "1")).toBeNull();
  });

  it("authorized: false is not ready; a missing flag is", () => {
    expect(problemOf(account({ is_authorized: false }), USDC, "1")).toEqual({
      problem: "not_authorized",
    });
    expect(problemOf(account({ is_authorized: true }), USDC, "1")).toBeNull();
  });

  it("room is limit - balance - buying liabilities, exact to the stroop; null skips it", () => {
    const line = { limit: "100", balance: "60.0000001", buying_liabilities: "10" };
    expect(problemOf(account(line), USDC, "29.9999999")).toBeNull();
    expect(problemOf(account(line), USDC, "30")).toEqual({
      problem: "no_room",
      room: "29.9999999",
    });
    expect(problemOf(account(line), USDC, null)).toBeNull();
  });

  it("words: the send message names the asset and the network as the app shows it", () => {
    expect(
      describeProblem({ problem: "no_room", room: "5" }, "GABC", "mainnet", USDC, "25").message,
    ).toBe(
      "Your wallet cannot receive USDC on Mainnet yet: its USDC trustline has room for 5 USDC, less than 25 USDC",
    );
  });

  it("pay-intent's words for each problem", () => {
    expect(payerSideError(null, USDC, "1")?.message).toBe(
      "Recipient wallet is not activated on this network. It must be funded first.",
    );
    expect(payerSideError(account({ is_authorized: false }), USDC, "1")?.message).toBe(
      "The recipient wallet cannot receive this asset yet. Ask the sender of this invoice to add a trustline.",
    );
    expect(payerSideError(account({ limit: "1" }), USDC, "2")?.message).toBe(
      "The recipient wallet cannot receive more of this asset (limit reached).",
    );
    expect(payerSideError(account({}), USDC, "2")).toBeNull();
  });
});
