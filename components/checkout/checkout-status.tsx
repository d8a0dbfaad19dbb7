import type { MessageKey } from "@/lib/i18n";
import { fill, type Messages } from "@/lib/i18n/fill";

/**
 * The invoice's state in the client's words on the checkout (issue 28: no state names such as
 * PENDING or PROCESSING): what the payer needs to know, with the transaction this page sent
 * "being confirmed" until the network has it.
 */
export function checkoutStatusWords({
  status,
  partly,
  confirming,
}: {
  status: string;
  /** Part of the amount is paid. */
  partly: boolean;
  /** This page's wallet sent a transaction that is not confirmed yet. */
  confirming: boolean;
}): string {
  if (status === "PAID") return "Paid";
  if (confirming) return "Your payment is being confirmed";
  switch (status) {
    case "DRAFT":
      return "Not sent yet";
    case "CANCELLED":
      return "Cancelled";
    case "EXPIRED":
      return partly ? "Partly paid, past due" : "Past due";
    default:
      // PENDING, FAILED, and PROCESSING (a pay-intent alone: nothing is known to be on its way).
      return partly ? "Partly paid" : "Awaiting payment";
  }
}

const tone = (words: string) =>
  words === "Paid"
    ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100"
    : words === "Your payment is being confirmed"
      ? "bg-indigo-100 text-indigo-900 dark:bg-indigo-900 dark:text-indigo-100"
      : words === "Cancelled" || words.endsWith("past due") || words === "Past due"
        ? "bg-amber-100 text-amber-950 dark:bg-amber-900 dark:text-amber-50"
        : "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100";

/** The words' catalogue keys (docs/decisions.md, Languages). */
const STATUS_KEYS: Record<string, MessageKey> = {
  Paid: "checkout.status.paid",
  "Your payment is being confirmed": "checkout.status.confirming",
  "Not sent yet": "checkout.status.draft",
  Cancelled: "checkout.status.cancelled",
  "Partly paid, past due": "checkout.status.partlyPastDue",
  "Past due": "checkout.status.pastDue",
  "Partly paid": "checkout.status.partly",
  "Awaiting payment": "checkout.status.awaiting",
};

export function CheckoutStatus({
  messages,
  ...props
}: Parameters<typeof checkoutStatusWords>[0] & {
  /** The checkout's messages in the invoice's language; without them, English. */
  messages?: Messages;
}) {
  const english = checkoutStatusWords(props);
  const words = messages ? fill(messages, STATUS_KEYS[english]) : english;
  return (
    <span
      data-testid="checkout-status"
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${tone(english)}`}
    >
      {words}
    </span>
  );
}
