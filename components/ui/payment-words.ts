import type { UnappliedReason } from "@/lib/domain/unapplied";
import { formatAmount, isZero } from "@/lib/format";

/**
 * How the web app names a payment that did not count towards its invoice (the reasons of
 * lib/domain/unapplied.ts; docs/decisions.md, Partial payments). Shared by the checkout's
 * receipt and the freelancer's invoice page.
 */
export function unappliedReasonText(p: {
  unappliedReason: UnappliedReason | null;
  asset: string;
  assetIssuer: string | null;
}): string {
  switch (p.unappliedReason) {
    case "already_paid":
      return "Arrived after the invoice was paid";
    case "invoice_cancelled":
      return "Invoice was cancelled";
    case "invoice_not_sent":
      return "Invoice was not sent";
    case "wrong_asset":
      return p.assetIssuer
        ? `Wrong asset: ${p.asset} issued by ${p.assetIssuer}`
        : `Wrong asset: ${p.asset}`;
    case "unpriced":
      return "No quote or price to value it: not counted";
    case "link_parent":
      return "Sent to the link itself, not to a checkout: not counted";
    case "link_full":
      return "The link had received all the payments it accepts: not counted";
    case "memo_mismatch":
      return "Sent to this invoice's address with a memo naming another invoice: not counted";
    default:
      return "Not counted";
  }
}

/** True when some, not all, of the invoice is paid: the pages then show paid and due. */
export const isPartlyPaid = (i: { status: string; amountPaid: string; amountDue: string }) =>
  i.status !== "PAID" && !isZero(i.amountPaid) && !isZero(i.amountDue);

/** "10.00 USDC paid, 15.00 USDC remaining" (the checkout passes its own formatMoney). */
export const paidAndRemaining = (
  amountPaid: string,
  amountDue: string,
  currency: string,
  format: (value: string, code: string) => string = formatAmount,
) => `${format(amountPaid, currency)} paid, ${format(amountDue, currency)} remaining`;
