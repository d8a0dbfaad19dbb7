/**
 * Why a recorded payment does not count towards its invoice's amountPaid (docs/decisions.md,
 * Partial payments): it arrived after the invoice was PAID, the invoice was cancelled, or not
 * sent (a draft or a deleted invoice), or it was another asset (or the right code from another
 * issuer), or it reached a payment link that takes no payment itself or no more payments, or its memo and its
 * muxed address named different invoices. Shared by the payments table, the response schemas and the web app.
 */
export const UNAPPLIED_REASONS = [
  "already_paid",
  "invoice_cancelled",
  "invoice_not_sent",
  "wrong_asset",
  // A fiat-priced invoice's payment that could not be valued: no quote and no price known.
  "unpriced",
  // A payment to a reusable or open-amount link's own memo: such a link is paid through its
  // checkouts only, so the link itself never counts a payment (docs/decisions.md, Payment links).
  "link_parent",
  // A checkout's payment when its link has received every payment it accepts (`maxPayments`)
  // and the checkout held no place: recorded and refundable, never counted.
  "link_full",
  // Sent to one invoice's muxed address (M...) with a text memo naming another invoice of the
  // same wallet (or, beside such a payment, to another invoice's muxed address): recorded
  // against the invoice of the address (where the money went), never counted, refundable; the
  // invoice the memo names is not paid by it (docs/decisions.md, Muxed addresses).
  "memo_mismatch",
] as const;
export type UnappliedReason = (typeof UNAPPLIED_REASONS)[number];
