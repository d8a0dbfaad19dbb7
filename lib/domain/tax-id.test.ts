import { describe, expect, it } from "vitest";
import { reverseChargeApplies } from "./address";
import { checkTaxId, inferTaxScheme, isCountryCode } from "./tax-id";

describe("tax registrations (stdnum's check digits)", () => {
  it.each([
    ["DE 136 695 976", "eu_vat", "DE136695976", "DE"],
    ["fr40303265045", "eu_vat", "FR40303265045", "FR"],
    ["BE0403019261", "eu_vat", "BE0403019261", "BE"],
    ["NL004495445B01", "eu_vat", "NL004495445B01", "NL"],
    ["EL 094259216", "eu_vat", "EL094259216", "GR"],
    ["GB 980 7806 84", "gb_vat", "GB980780684", "GB"],
  ])("%s is a valid %s number, kept as %s", (input, scheme, compact, country) => {
    expect(inferTaxScheme(input)).toBe(scheme);
    expect(checkTaxId(input)).toEqual({ ok: true, taxId: compact, scheme, country });
  });

  it("refuses a wrong check digit and says so", () => {
    const r = checkTaxId("DE136695977");
    expect(r).toEqual({
      ok: false,
      message: "taxId is not a valid DE VAT number (wrong check digit)",
    });
    expect(checkTaxId("FR40303265046").ok).toBe(false);
    expect(checkTaxId("GB980780685").ok).toBe(false);
  });

  it("takes an EU number without its prefix from the country, and refuses a mismatch", () => {
    expect(checkTaxId("136695976", "eu_vat", "DE")).toMatchObject({
      ok: true,
      taxId: "DE136695976",
    });
    expect(checkTaxId("094259216", "eu_vat", "GR")).toMatchObject({
      ok: true,
      taxId: "EL094259216",
    });
    expect(checkTaxId("136695976", "eu_vat")).toMatchObject({ ok: false });
    expect(checkTaxId("DE136695976", "eu_vat", "FR")).toEqual({
      ok: false,
      message: "taxId is a DE VAT number but the country is FR",
    });
  });

  it("checks an Australian ABN's check digits", () => {
    expect(checkTaxId("83 914 571 673", "au_abn")).toEqual({
      ok: true,
      taxId: "83914571673",
      scheme: "au_abn",
      country: "AU",
    });
    expect(checkTaxId("83 914 571 674", "au_abn").ok).toBe(false);
  });

  it("checks other schemes for length and characters only", () => {
    expect(checkTaxId("12-3456789", "other", "US")).toEqual({
      ok: true,
      taxId: "12-3456789",
      scheme: "other",
      country: "US",
    });
    expect(checkTaxId("x", "other").ok).toBe(false);
    expect(checkTaxId("12<script>", "other").ok).toBe(false);
  });

  it("knows ISO 3166-1 alpha-2 codes", () => {
    expect(isCountryCode("FR")).toBe(true);
    expect(isCountryCode("XX")).toBe(false);
    expect(isCountryCode("fr")).toBe(false);
  });
});

describe("reverse charge (art. 196)", () => {
  const seller = { taxId: "DE136695976", taxScheme: "eu_vat" as const };
  it("applies to a business with an EU VAT number in another member state", () => {
    expect(
      reverseChargeApplies(seller, {
        taxId: "FR40303265045",
        taxScheme: "eu_vat",
        isBusiness: true,
      }),
    ).toBe(true);
  });
  it("not in the seller's own country, nor to a consumer, nor without EU VAT numbers", () => {
    expect(
      reverseChargeApplies(seller, { taxId: "DE136695976", taxScheme: "eu_vat", isBusiness: true }),
    ).toBe(false);
    expect(
      reverseChargeApplies(seller, {
        taxId: "FR40303265045",
        taxScheme: "eu_vat",
        isBusiness: false,
      }),
    ).toBe(false);
    expect(
      reverseChargeApplies(seller, { taxId: "GB980780684", taxScheme: "gb_vat", isBusiness: true }),
    ).toBe(false);
    expect(
      reverseChargeApplies(
        { taxId: "12-3456789", taxScheme: "other" },
        { taxId: "FR40303265045", taxScheme: "eu_vat", isBusiness: true },
      ),
    ).toBe(false);
  });
});
