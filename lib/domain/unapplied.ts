/**
 * Why a recorded payment does not count towards its invoice's amountPaid (docs/decisions.md,
 * Partial payments): it arrived after the invoice was PAID, the invoice was cancelled, or not
 * sent (a draft or a deleted invoice), or it was another asset (or the right code from another
 * issuer). Shared by the payments table, the response schemas and the web app.
 */
export const UNAPPLIED_REASONS = [
  "already_paid",
  "invoice_cancelled",
  "invoice_not_sent",
  "wrong_asset",
  // A fiat-priced invoice's payment that could not be valued: no quote and no price known.
  "unpriced",
] as const;
export type UnappliedReason = (typeof UNAPPLIED_REASONS)[number];
