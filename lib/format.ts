import { fiat2 } from "@/lib/domain/fiat";
import { Decimal } from "@/lib/domain/money";
import {
  type Explorers,
  type NetworkName,
  networkOf,
  STELLAR_EXPERT,
} from "@/lib/stellar/networks";

/**
 * Display helpers shared by every page (the freelancer's, client-rendered; the checkout,
 * server-rendered then hydrated) and by the invoice PDF. Pure and string based: amounts arrive
 * as exact decimal strings and are never turned into floats (docs/decisions.md, Money).
 */

export {
  NETWORK_NAMES,
  NETWORK_PASSPHRASES,
  type NetworkName,
  networkOf,
} from "@/lib/stellar/networks";

export const NETWORK_LABELS: Record<NetworkName, string> = {
  testnet: "Testnet",
  mainnet: "Mainnet",
};

/** The checkout's wording: "Stellar public network" or "Stellar testnet". */
export const stellarNetworkName = (passphrase: string) =>
  networkOf(passphrase) === "mainnet" ? "Stellar public network" : "Stellar testnet";

/**
 * A transaction's page on the explorer of `passphrase`'s network. The server passes the
 * configured explorers in (a local ledger's own `/transactions/` offline); this module never
 * reads the environment, as the browser shares it.
 */
export function explorerTxUrl(
  hash: string,
  passphrase: string,
  explorers: Explorers = STELLAR_EXPERT,
): string {
  return `${explorers[networkOf(passphrase)]}${hash}`;
}

// ---------------------------------------------------------------------------
// Amounts

const DECIMAL = /^(-?)(\d+)(?:\.(\d*))?$/;

/** "10.5000000" -> "10.5", "0.0000000" -> "0": a stored decimal, shortened for editing. */
export const trimZeros = (s: string | null | undefined) =>
  s ? s.replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "") : "";

/**
 * An exchange rate as the client reads it: 6 significant digits, rounded half up, trailing
 * zeros dropped ("0.115740740" -> "0.115741", "1.0800000" -> "1.08", "8.6400000000" -> "8.64").
 * The quote keeps its exact rate; only the words shown are shortened.
 */
export function formatRate(rate: string): string {
  const value = new Decimal(rate);
  if (value.eq("0")) return "0";
  const abs = value.abs();
  const whole = abs.round(0, Decimal.roundDown).toFixed();
  // Digits before the point count; below 1, the zeros after the point do not.
  const leading = whole === "0" ? (abs.toFixed().split(".")[1] ?? "").search(/[1-9]/) : 0;
  const places = whole === "0" ? 6 + leading : Math.max(0, 6 - whole.length);
  return formatGrouped(trimZeros(value.round(places, Decimal.roundHalfUp).toFixed(places)), 0);
}

/** True for "", "0", "0.00"...: an absent tax rate or discount. */
export const isZero = (s: string | null | undefined) => !s || /^0*(\.0*)?$/.test(s);

/** "1234567" -> "1,234,567": thousands of a whole-number string grouped. */
const group = (whole: string) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/**
 * Freelancer pages, emails and the PDF: "1050.0000000" -> "1,050.00", "0.1234500" -> "0.12345"
 * (thousands grouped, as every amount shown: docs/decisions.md, One number format; trailing
 * zeros go, at least two decimals stay), "—" when absent, with the currency code when given.
 */
export function formatAmount(amount: string | null | undefined, currency?: string): string {
  if (amount === null || amount === undefined || amount === "") return "—";
  const match = DECIMAL.exec(amount.trim());
  if (!match) return currency ? `${amount} ${currency}` : amount;
  const [, sign, whole, fraction = ""] = match;
  const int = group(whole.replace(/^0+(?=\d)/, ""));
  const text = `${sign}${int}.${fraction.replace(/0+$/, "").padEnd(2, "0")}`;
  return currency ? `${text} ${currency}` : text;
}

/**
 * Lists and summaries on the freelancer's pages (docs/decisions.md, Amounts on the
 * freelancer's pages): "2887.3649999" -> "2,887.36", grouped, rounded half-up to 2 decimals.
 * Dust never reads as zero: a non-zero amount under 0.01 keeps every significant decimal
 * ("0.0000001" -> "0.0000001", "0.0049000" -> "0.0049"). Exact: digit strings and BigInt,
 * never a float. The full amount goes in a title (formatExact) and on the detail view.
 */
export function formatTrimmed(amount: string | null | undefined, currency?: string): string {
  if (amount === null || amount === undefined || amount === "") return "—";
  const match = DECIMAL.exec(amount.trim());
  if (!match) return currency ? `${amount} ${currency}` : amount;
  const [, sign, whole, fraction = ""] = match;
  const cents = BigInt(`${whole}${fraction.slice(0, 2).padEnd(2, "0")}`);
  const rest = fraction.slice(2);
  let text: string;
  if (cents === 0n && /[1-9]/.test(rest)) {
    text = `0.${fraction.replace(/0+$/, "")}`;
  } else {
    const rounded = (cents + (rest[0] !== undefined && rest[0] >= "5" ? 1n : 0n))
      .toString()
      .padStart(3, "0");
    text = `${group(rounded.slice(0, -2))}.${rounded.slice(-2)}`;
  }
  const signed = sign && /[1-9]/.test(text) ? `-${text}` : text;
  return currency ? `${signed} ${currency}` : signed;
}

/**
 * The detail view and every amount's title: "2887.36" -> "2,887.3600000", grouped, all 7
 * decimals of the ledger (more when given), nothing rounded.
 */
export function formatExact(amount: string | null | undefined, currency?: string): string {
  if (amount === null || amount === undefined || amount === "") return "—";
  const match = DECIMAL.exec(amount.trim());
  if (!match) return currency ? `${amount} ${currency}` : amount;
  const [, sign, whole, fraction = ""] = match;
  const text = `${sign}${group(whole.replace(/^0+(?=\d)/, ""))}.${fraction.padEnd(7, "0")}`;
  return currency ? `${text} ${currency}` : text;
}

/**
 * The checkout: "1001.5000000" -> "1,001.50", thousands grouped; every significant decimal
 * (up to 7) stays, at least `min`.
 */
export function formatGrouped(value: string, min = 2): string {
  const negative = value.startsWith("-");
  const [intRaw, fracRaw = ""] = (negative ? value.slice(1) : value).split(".");
  const int = intRaw.replace(/^0+(?=\d)/, "") || "0";
  const frac = fracRaw.replace(/0+$/, "").padEnd(min, "0");
  return `${negative ? "-" : ""}${group(int)}${frac ? `.${frac}` : ""}`;
}

/** The checkout's "1,001.50 XLM". */
export const formatMoney = (value: string, code: string) => `${formatGrouped(value)} ${code}`;

/**
 * A fiat amount (a fiat-priced invoice's total, paid, due; whole cents written with 7
 * decimals like every amount, docs/decisions.md, Fiat pricing): "1200.0000000" ->
 * "1,200.00 EUR", always 2 decimals, rounded half up to the cent (`fiat2`,
 * lib/domain/fiat.ts: amountPaid "4681.4218519" is "4,681.42", "80.9950000" is "81.00").
 */
export function formatFiat(value: string, code: string): string {
  const trimmed = value.trim();
  if (!/^-?\d+(\.\d*)?$/.test(trimmed)) return `${value} ${code}`;
  const [whole, fraction = ""] = fiat2(trimmed).split(".");
  return `${formatGrouped(whole, 0)}.${fraction} ${code}`;
}

/** How an invoice is priced: in the asset itself, or in USD/EUR and paid in the asset. */
export type Pricing = { currency: string; priceCurrency?: string | null };

/**
 * An invoice's amount in its pricing currency: "1,200.00 EUR" for a fiat-priced one, else
 * `plain(amount, asset)` (formatAmount on the freelancer pages and the PDF, formatMoney on
 * the checkout).
 */
export function formatPriced(
  amount: string | null | undefined,
  p: Pricing,
  plain: (value: string, code: string) => string = formatAmount,
): string {
  if (amount === null || amount === undefined || amount === "") return "—";
  return p.priceCurrency ? formatFiat(amount, p.priceCurrency) : plain(amount, p.currency);
}

/** "1,200.00 EUR, paid in XLM" (fiat-priced), else as formatPriced. */
export const formatPricedWithAsset = (
  amount: string | null | undefined,
  p: Pricing,
  plain: (value: string, code: string) => string = formatAmount,
) =>
  p.priceCurrency
    ? `${formatPriced(amount, p)}, paid in ${p.currency}`
    : formatPriced(amount, p, plain);

/** The code amounts are written in: the price currency, else the asset. */
export const pricingCode = (p: Pricing) => p.priceCurrency ?? p.currency;

/** "≈ $12.34 USD" for an XLM amount at a USD price (an estimate); null when unusable. */
export function approxUsd(amount: string, usd: number): string | null {
  const value = Number(amount) * usd;
  if (!Number.isFinite(value) || !(usd > 0)) return null;
  const text = value.toLocaleString("en-US", {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return `≈ $${text} USD`;
}

// ---------------------------------------------------------------------------
// Dates

const DAY = { day: "numeric", month: "short", year: "numeric" } as const;

/** `iso` in en-GB words ("31 Dec 2026"), "—" when absent, as given when not a date. */
function written(iso: string | null | undefined, options: Intl.DateTimeFormatOptions): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString("en-GB", options);
}

/** Freelancer pages: a due date is a UTC calendar day, shown in UTC so it never moves. */
export const formatDate = (iso: string | null | undefined) =>
  written(iso, { ...DAY, timeZone: "UTC" });

/** Freelancer pages: a moment (created, paid, delivered) in the viewer's time zone. */
export const formatDateTime = (iso: string | null | undefined) =>
  written(iso, { ...DAY, hour: "2-digit", minute: "2-digit" });

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * The checkout: "31 Dec 2026", the UTC day, written by hand so the server's HTML and the
 * browser's text always agree.
 */
export function formatUtcDate(value: string | Date): string {
  const d = typeof value === "string" ? new Date(value) : value;
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** The checkout: "31 Dec 2026, 14:05 UTC". */
export function formatUtcDateTime(value: string | Date): string {
  const d = typeof value === "string" ? new Date(value) : value;
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `${formatUtcDate(d)}, ${hh}:${mm} UTC`;
}

/** "1 minute", "15 minutes". */
export const minutes = (n: number) => `${n} minute${n === 1 ? "" : "s"}`;

/** A quote's time left: 899_400 ms -> "14:59", never negative; minutes past 99 stay whole. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const mm = String(Math.floor(total / 60)).padStart(2, "0");
  const ss = String(total % 60).padStart(2, "0");
  return `${mm}:${ss}`;
}

// ---------------------------------------------------------------------------
// Identifiers and links

/** "GABC…WXYZ" for a wallet address. */
export const shortAddress = (w: string) => (w.length > 12 ? `${w.slice(0, 4)}…${w.slice(-4)}` : w);

export const shortHash = (h: string) => (h.length > 16 ? `${h.slice(0, 8)}…${h.slice(-8)}` : h);

/** The public checkout page of an invoice, on this site (browser only). */
export function paymentPageUrl(id: string): string {
  return `${window.location.origin}/pay/${id}`;
}

/**
 * The status a screen shows for an invoice's `status` (docs/decisions.md, Lifecycle, What the
 * screens show). PROCESSING means a transaction was submitted and is not yet confirmed; the
 * API's PROCESSING also follows a pay-intent (a QR code opened, a wallet asked to sign, an
 * attempt abandoned), and the service keeps no record of a transaction between sending it
 * and the ledger's answer (submit waits for it, the watcher records what lands), so nothing
 * stored tells a submission in flight apart from a payer who only started. Screens therefore
 * show PROCESSING as PENDING: nothing has been paid, and nothing is known to be on its way.
 * The timeline says "Payment started" (components/invoices/audit-timeline.tsx).
 */
export const shownStatus = (status: string): string =>
  status === "PROCESSING" ? "PENDING" : status;

/**
 * Counts per shown status (`shownStatus`), for a breakdown by API status: PROCESSING's count
 * joins PENDING's, so the numbers add up to what the list shows.
 */
export function shownStatusCounts(
  statuses: readonly string[],
  counts: Partial<Record<string, number>>,
): [string, number][] {
  const shown = new Map<string, number>();
  for (const s of statuses) {
    const key = shownStatus(s);
    shown.set(key, (shown.get(key) ?? 0) + (counts[s] ?? 0));
  }
  return [...shown];
}

/** How a payment was received, as a screen, an email or the PDF says it. */
export const PAYMENT_METHOD_LABELS: Record<string, string> = {
  stellar: "Stellar",
  bank_transfer: "Bank transfer",
  cash: "Cash",
  other: "Other",
};

/** A payment received outside Stellar: "Bank transfer · ref 2026-114" (no transaction hash). */
export const paymentMethodLabel = (method: string, reference?: string | null): string =>
  `${PAYMENT_METHOD_LABELS[method] ?? method}${reference ? ` · ref ${reference}` : ""}`;

/**
 * A state as a screen writes it, in sentence case: "PARTIALLY_PAID" -> "Partially paid",
 * "PENDING" -> "Pending", "delivered" -> "Delivered" (docs/decisions.md, One number format).
 */
export function stateWords(state: string): string {
  const words = state.replace(/[_-]+/g, " ").trim().toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : state;
}

/** An invoice's status on screen: what `shownStatus` shows, in words ("Pending", "Paid"). */
export const statusWords = (status: string): string => stateWords(shownStatus(status));
