import { invoiceDefaults, type ProfileDefaults } from "@/lib/domain/invoice-defaults";

/** The invoice form's fields a profile fills (as text, as the form holds them). */
export type ProfileFormDefaults = {
  freelancerName: string;
  freelancerEmail: string;
  freelancerCompany: string;
  /** YYYY-MM-DD, the UTC day `paymentTermsDays` after today; "" without terms. */
  dueDate: string;
  /** "1.50"; "" when the profile has none (the service's 0). */
  paymentTolerance: string;
};

/**
 * What a new invoice would take from the profile (GET /api/profile) if its fields were left
 * blank, in the form's text: the same rule creation applies (`invoiceDefaults`,
 * lib/domain/invoice-defaults.ts), so the form shows what the service would fill, not a copy.
 */
export function profileFormDefaults(profile: ProfileDefaults, now: Date): ProfileFormDefaults {
  const d = invoiceDefaults(profile, {}, now);
  return {
    freelancerName: d.freelancerName ?? "",
    freelancerEmail: d.freelancerEmail ?? "",
    freelancerCompany: d.freelancerCompany ?? "",
    dueDate: d.dueDate ? d.dueDate.toISOString().slice(0, 10) : "",
    paymentTolerance: profile.defaultPaymentTolerance ? String(d.paymentTolerance) : "",
  };
}

/** "Due in 30 days", "Due on receipt" (0 days), for the profile's payment terms. */
export function termsWords(days: number | null | undefined): string | null {
  if (days === null || days === undefined) return null;
  if (days === 0) return "Due on receipt";
  return `Due in ${days} day${days === 1 ? "" : "s"}`;
}
