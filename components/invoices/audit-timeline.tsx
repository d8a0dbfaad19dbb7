import { Muted } from "@/components/ui/page";
import { formatDateTime, formatFiat, type Pricing, shortAddress } from "@/lib/format";
import type { AuditLog } from "./types";

/** An audit entry's action in words (the history here, the dashboard's activity). */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  CREATED: "Created",
  UPDATED: "Updated",
  SENT: "Sent",
  PAID: "Paid",
  EXPIRED: "Expired",
  CANCELLED: "Cancelled",
  DELETED: "Deleted",
  FAILED: "Payment failed",
  PAYMENT_RECEIVED: "Payment received",
  REFUNDED: "Refunded",
  PAYMENT_VOIDED: "Payment voided",
};

/**
 * A payer starting to pay (a pay-intent moving the invoice to PROCESSING, audit UPDATED) reads
 * "Payment started", not "Updated".
 */
export function isPaymentStart(e: { action: string; changes: Record<string, unknown> | null }) {
  const status = e.changes?.status as { to?: unknown } | undefined;
  return e.action === "UPDATED" && status?.to === "PROCESSING";
}

const labelOf = (e: AuditLog) =>
  isPaymentStart(e) ? "Payment started" : (AUDIT_ACTION_LABELS[e.action] ?? e.action);

function actor(wallet: string, me: string | undefined): string {
  if (wallet === "SYSTEM") return "the service";
  if (wallet === "ANONYMOUS") return "the payer";
  if (me && wallet === me) return "you";
  return shortAddress(wallet);
}

/** The invoice's own amounts: in its price currency (fiat-priced), rounded to the cent. */
const FIAT_KEYS = new Set([
  "total",
  "subtotal",
  "taxAmount",
  "discount",
  "amountPaid",
  "amountDue",
]);

function show(value: unknown, fiat?: string | null): string {
  if (value === null || value === undefined) return "none";
  // A fiat figure (amountPaid is kept to 7 decimals) is shown in cents with its currency
  // (docs/decisions.md, Fiat pricing): never "4681.4218519" above a 4681.42 total.
  if (fiat && typeof value === "string" && /^\d+(\.\d+)?$/.test(value))
    return formatFiat(value, fiat);
  if (typeof value === "string") return value.length > 80 ? `${value.slice(0, 77)}…` : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** `{status: {from, to}, reason}` -> "status: DRAFT → PENDING", "reason: late". */
function describe(changes: Record<string, unknown>, priceCurrency?: string | null): string[] {
  return Object.entries(changes).map(([key, value]) => {
    if (key === "lineItems") return "line items changed";
    const fiat = FIAT_KEYS.has(key) ? priceCurrency : null;
    if (value && typeof value === "object" && "to" in value) {
      const { from, to } = value as { from: unknown; to: unknown };
      return from === null || from === undefined
        ? `${key}: ${show(to, fiat)}`
        : `${key}: ${show(from, fiat)} → ${show(to, fiat)}`;
    }
    return `${key}: ${show(value, fiat)}`;
  });
}

/** The invoice's audit trail, oldest first: what happened, who did it, when, what changed. */
export function AuditTimeline({
  entries,
  wallet,
  pricing,
}: {
  entries: AuditLog[];
  wallet?: string;
  /** The invoice's pricing: a fiat-priced invoice's amounts are shown in its currency. */
  pricing?: Pricing;
}) {
  if (entries.length === 0) {
    return <Muted>No history yet.</Muted>;
  }
  return (
    <ol
      aria-label="Audit trail"
      className="relative space-y-4 border-l border-slate-200 pl-5 dark:border-slate-700"
    >
      {entries.map((e) => (
        <li key={e.id} className="relative">
          <span
            aria-hidden="true"
            className="absolute top-1.5 -left-[1.65rem] h-2.5 w-2.5 rounded-full bg-indigo-500"
          />
          <p className="text-sm">
            <span className="font-semibold">{labelOf(e)}</span>{" "}
            <span className="text-slate-600 dark:text-slate-300">
              by <span title={e.actorWallet}>{actor(e.actorWallet, wallet)}</span>
            </span>
          </p>
          <time dateTime={e.createdAt} className="block text-xs text-slate-500 dark:text-slate-400">
            {formatDateTime(e.createdAt)}
          </time>
          {e.changes && Object.keys(e.changes).length > 0 && (
            <ul className="mt-1 space-y-0.5 text-xs text-slate-600 dark:text-slate-300">
              {describe(e.changes, pricing?.priceCurrency).map((line) => (
                <li key={line} className="break-all font-mono">
                  {line}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}
