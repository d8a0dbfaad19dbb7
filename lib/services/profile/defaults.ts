// The defaults a new invoice takes from its owner's profile: one pure rule in
// lib/domain/invoice-defaults.ts, shared with the invoice form (docs/decisions.md, Profile).
export { invoiceDefaults, invoiceLanguage } from "@/lib/domain/invoice-defaults";
