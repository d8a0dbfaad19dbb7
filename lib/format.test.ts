import { describe, expect, it } from "vitest";
import {
  explorerTxUrl,
  formatAmount,
  formatCountdown,
  formatDate,
  formatExact,
  formatFiat,
  formatGrouped,
  formatMoney,
  formatPriced,
  formatPricedWithAsset,
  formatTrimmed,
  formatUtcDate,
  formatUtcDateTime,
  isZero,
  minutes,
  NETWORK_PASSPHRASES,
  shortAddress,
  shownStatus,
  shownStatusCounts,
  stellarNetworkName,
  trimZeros,
} from "./format";

describe("lib/format", () => {
  it("amounts: plain on the freelancer pages, grouped on the checkout, never through a float", () => {
    expect(formatAmount("1050.0000000")).toBe("1,050.00");
    expect(formatAmount("2040", "USDC")).toBe("2,040.00 USDC");
    expect(formatAmount("-1234567.5")).toBe("-1,234,567.50");
    expect(formatAmount("0.1234500", "XLM")).toBe("0.12345 XLM");
    expect(formatAmount(null)).toBe("—");
    expect(formatAmount("99999999999.9999999")).toBe("99,999,999,999.9999999");
    expect(formatGrouped("1001.5000000")).toBe("1,001.50");
    expect(formatGrouped("2.00", 0)).toBe("2");
    expect(formatMoney("1100.0000000", "XLM")).toBe("1,100.00 XLM");
    expect(trimZeros("10.5000000")).toBe("10.5");
    expect(trimZeros("100.00")).toBe("100");
    expect(isZero("0.0000000")).toBe(true);
    expect(isZero("0.01")).toBe(false);
  });

  it("trimmed amounts in lists: grouped, half-up to 2 decimals, dust in full, exact strings", () => {
    expect(formatTrimmed("2887.3600000", "USDC")).toBe("2,887.36 USDC");
    expect(formatTrimmed("2887.3649999", "USDC")).toBe("2,887.36 USDC");
    expect(formatTrimmed("2887.3650000", "USDC")).toBe("2,887.37 USDC");
    expect(formatTrimmed("999999.9950000")).toBe("1,000,000.00");
    expect(formatTrimmed("1050")).toBe("1,050.00");
    expect(formatTrimmed("0.0000000", "XLM")).toBe("0.00 XLM");
    expect(formatTrimmed("0.0100000")).toBe("0.01");
    // Dust (a non-zero amount under 0.01) keeps its significant decimals, never "0.00".
    expect(formatTrimmed("0.0000001", "XLM")).toBe("0.0000001 XLM");
    expect(formatTrimmed("0.0049000")).toBe("0.0049");
    expect(formatTrimmed("0.0099999")).toBe("0.0099999");
    expect(formatTrimmed("-12.3456789")).toBe("-12.35");
    expect(formatTrimmed("-0.0000000")).toBe("0.00");
    // Beyond a float's 15-16 significant digits, still exact.
    expect(formatTrimmed("922337203685.4775807")).toBe("922,337,203,685.48");
    expect(formatTrimmed(null)).toBe("—");
    expect(formatTrimmed("abc", "XLM")).toBe("abc XLM");
  });

  it("exact amounts on the detail view and in titles: grouped, all 7 decimals", () => {
    expect(formatExact("2887.36", "USDC")).toBe("2,887.3600000 USDC");
    expect(formatExact("922337203685.4775807")).toBe("922,337,203,685.4775807");
    expect(formatExact("0.0000001")).toBe("0.0000001");
    expect(formatExact("-5")).toBe("-5.0000000");
    expect(formatExact(undefined)).toBe("—");
    expect(formatPricedWithAsset("1100.0000000", { currency: "XLM" }, formatExact)).toBe(
      "1,100.0000000 XLM",
    );
    expect(
      formatPricedWithAsset("100.0000000", { currency: "XLM", priceCurrency: "EUR" }, formatExact),
    ).toBe("100.00 EUR, paid in XLM");
  });

  it("explorer links take the hash first, then the invoice's passphrase", () => {
    expect(explorerTxUrl("abc", NETWORK_PASSPHRASES.testnet)).toBe(
      "https://stellar.expert/explorer/testnet/tx/abc",
    );
    expect(explorerTxUrl("abc", NETWORK_PASSPHRASES.mainnet)).toBe(
      "https://stellar.expert/explorer/public/tx/abc",
    );
    expect(stellarNetworkName(NETWORK_PASSPHRASES.mainnet)).toBe("Stellar public network");
  });

  it("explorer links follow the configured explorers (a local ledger offline)", () => {
    const local = {
      testnet: "http://127.0.0.1:8001/transactions/",
      mainnet: "http://127.0.0.1:8002/transactions/",
    };
    expect(explorerTxUrl("abc", NETWORK_PASSPHRASES.testnet, local)).toBe(
      "http://127.0.0.1:8001/transactions/abc",
    );
    expect(explorerTxUrl("abc", NETWORK_PASSPHRASES.mainnet, local)).toBe(
      "http://127.0.0.1:8002/transactions/abc",
    );
  });

  it("dates: due dates in UTC; the checkout's by hand", () => {
    expect(formatDate("2099-12-31T00:00:00.000Z")).toBe("31 Dec 2099");
    expect(formatDate(null)).toBe("—");
    expect(formatUtcDate("2099-09-01T23:59:00.000Z")).toBe("1 Sep 2099");
    expect(formatUtcDateTime("2026-12-31T14:05:00.000Z")).toBe("31 Dec 2026, 14:05 UTC");
    expect(shortAddress(`G${"A".repeat(55)}`)).toBe("GAAA…AAAA");
  });

  it("fiat-priced amounts: grouped, exactly 2 decimals, labelled with the price currency", () => {
    expect(formatFiat("1200.0000000", "EUR")).toBe("1,200.00 EUR");
    expect(formatFiat("0.5000000", "USD")).toBe("0.50 USD");
    expect(formatFiat("7", "USD")).toBe("7.00 USD");
    expect(formatFiat("4681.4218519", "EUR")).toBe("4,681.42 EUR");
    expect(formatFiat("80.9950000", "EUR")).toBe("81.00 EUR");
    expect(formatFiat("999.9960000", "USD")).toBe("1,000.00 USD");
    const eur = { currency: "XLM", priceCurrency: "EUR" };
    expect(formatPriced("100.2500000", eur)).toBe("100.25 EUR");
    expect(formatPriced("100.2500000", { currency: "XLM", priceCurrency: null })).toBe(
      "100.25 XLM",
    );
    expect(formatPriced("1100.0000000", { currency: "XLM" }, formatMoney)).toBe("1,100.00 XLM");
    expect(formatPricedWithAsset("1200.0000000", eur)).toBe("1,200.00 EUR, paid in XLM");
    expect(formatPricedWithAsset("5.0000000", { currency: "USDC" })).toBe("5.00 USDC");
    expect(formatPriced(null, eur)).toBe("—");
  });

  it("a quote's countdown is mm:ss, rounded up to the second, never negative", () => {
    expect(formatCountdown(15 * 60_000)).toBe("15:00");
    expect(formatCountdown(899_400)).toBe("15:00");
    expect(formatCountdown(898_999)).toBe("14:59");
    expect(formatCountdown(9_000)).toBe("00:09");
    expect(formatCountdown(-5)).toBe("00:00");
    expect(minutes(1)).toBe("1 minute");
    expect(minutes(15)).toBe("15 minutes");
  });

  it("screens show PROCESSING as PENDING: a pay-intent alone is not a payment on its way (issue 28, item 7)", () => {
    expect(shownStatus("PROCESSING")).toBe("PENDING");
    for (const s of ["DRAFT", "PENDING", "PAID", "FAILED", "EXPIRED", "CANCELLED"]) {
      expect(shownStatus(s)).toBe(s);
    }
    const statuses = ["DRAFT", "PENDING", "PROCESSING", "PAID"];
    expect(shownStatusCounts(statuses, { DRAFT: 1, PENDING: 2, PROCESSING: 3 })).toEqual([
      ["DRAFT", 1],
      ["PENDING", 5],
      ["PAID", 0],
    ]);
  });
});
