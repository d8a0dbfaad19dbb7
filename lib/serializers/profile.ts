import { sameInBothForms } from "@/lib/http/forms";
import { profileResponse } from "@/lib/schemas/profile";
import { type ProfileView, profileLogoUrl } from "@/lib/services/profile/profile";

export const profileSerializer = sameInBothForms(profileResponse, (p: ProfileView, { appUrl }) => ({
  wallet: p.wallet,
  displayName: p.displayName,
  company: p.company,
  email: p.email,
  phone: p.phone,
  address: p.address,
  taxId: p.taxId,
  taxScheme: p.taxScheme,
  taxCountry: p.taxCountry,
  postalAddress: p.postalAddress,
  logoUrl: profileLogoUrl(appUrl, p),
  logoType: p.logoType,
  reportingCurrency: p.reportingCurrency,
  paymentTermsDays: p.paymentTermsDays,
  defaultReminders: p.defaultReminders,
  defaultPaymentTolerance: p.defaultPaymentTolerance,
  emailFooter: p.emailFooter,
  defaultLanguage: p.defaultLanguage,
  updatedAt: p.updatedAt?.toISOString() ?? null,
}));
