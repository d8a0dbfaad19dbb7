import { describe, expect, it } from "vitest";
import { invoiceDefaults } from "@/lib/domain/invoice-defaults";
import { profileFormDefaults, termsWords } from "./profile-defaults";

const profile = {
  displayName: "Studio Sam",
  company: "Sam & Co",
  email: "sam@studio.example",
  paymentTermsDays: 30,
  defaultPaymentTolerance: "1.50",
};

describe("the invoice form's profile defaults (lib/client/profile-defaults.ts)", () => {
  it("are what creation would fill: name, email, company, due date in 30 days, tolerance", () => {
    const now = new Date("2026-11-27T18:30:00Z");
    expect(profileFormDefaults(profile, now)).toEqual({
      freelancerName: "Studio Sam",
      freelancerEmail: "sam@studio.example",
      freelancerCompany: "Sam & Co",
      dueDate: "2026-12-27",
      paymentTolerance: "1.50",
    });
    // The same rule as the service's: the day creation would store.
    expect(invoiceDefaults(profile, {}, now).dueDate?.toISOString().slice(0, 10)).toBe(
      "2026-12-27",
    );
  });

  it("leave blank what the profile does not have", () => {
    expect(profileFormDefaults({ paymentTermsDays: null }, new Date())).toEqual({
      freelancerName: "",
      freelancerEmail: "",
      freelancerCompany: "",
      dueDate: "",
      paymentTolerance: "",
    });
  });

  it("say the terms in words", () => {
    expect(termsWords(30)).toBe("Due in 30 days");
    expect(termsWords(1)).toBe("Due in 1 day");
    expect(termsWords(0)).toBe("Due on receipt");
    expect(termsWords(null)).toBeNull();
  });
});
