import { startOfUtcDay } from "@/lib/domain/due-date";
import type { ProfileRow } from "./profile";

const DAY_MS = 24 * 60 * 60 * 1000;

type Given = {
  freelancerName?: string | null;
  freelancerEmail?: string | null;
  freelancerCompany?: string | null;
  dueDate?: Date | null;
  paymentTolerance?: string | number | null;
};

/**
 * What a new invoice takes from its owner's profile (docs/decisions.md, Profile): each of the
 * freelancer's name, company and email, the due date (`paymentTermsDays` after the creation's
 * UTC day) and the payment tolerance, when the body leaves it out, null or empty. A value in
 * the body always wins. Reminders are not copied: an invoice without its own follows the
 * profile's defaults (invoices.reminders null).
 */
export function invoiceDefaults(profile: ProfileRow | null, given: Given, now: Date) {
  const terms = profile?.paymentTermsDays;
  return {
    freelancerName: given.freelancerName || profile?.displayName || null,
    freelancerCompany: given.freelancerCompany || profile?.company || null,
    freelancerEmail: given.freelancerEmail || profile?.email || null,
    dueDate:
      given.dueDate ??
      (terms == null ? null : new Date(startOfUtcDay(now).getTime() + terms * DAY_MS)),
    paymentTolerance: given.paymentTolerance ?? profile?.defaultPaymentTolerance ?? "0",
  };
}
