import { DEFAULT_LANGUAGE, type Language } from "@/lib/i18n/languages";
import { startOfUtcDay } from "./due-date";

const DAY_MS = 24 * 60 * 60 * 1000;

/** What of a business profile a new invoice takes (the profile row, or GET /api/profile's body). */
export type ProfileDefaults = {
  displayName?: string | null;
  company?: string | null;
  email?: string | null;
  paymentTermsDays?: number | null;
  defaultPaymentTolerance?: string | null;
};

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
 * profile's defaults (invoices.reminders null). One rule for both sides: creation applies it
 * (lib/services/invoices/create-invoice.ts) and the invoice form shows what it gives
 * (components/invoices/invoice-form.tsx, from GET /api/profile).
 */
export function invoiceDefaults(profile: ProfileDefaults | null, given: Given, now: Date) {
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

/**
 * An invoice's language (docs/decisions.md, Languages): the body's, else its saved client's
 * (created with `clientId`), else the profile's default, else English. Fixed on the invoice at
 * creation, so its documents never change language afterwards.
 */
export function invoiceLanguage(
  given: Language | null | undefined,
  client: { language?: Language | null } | null,
  profile: { defaultLanguage?: Language | null } | null,
): Language {
  return given ?? client?.language ?? profile?.defaultLanguage ?? DEFAULT_LANGUAGE;
}
