/**
 * Display helpers for the checkout, shared by the server page and the client panel. Pure and
 * string based: amounts arrive as exact decimal strings and are never turned into floats, and
 * dates are written in UTC by hand so the server's and the browser's text always agree.
 */

const MAINNET_PASSPHRASE = "Public Global Stellar Network ; September 2015";

/** "1001.5000000" -> "1,001.50"; keeps every significant decimal (up to 7), at least `min`. */
export function formatAmount(value: string, min = 2): string {
  const negative = value.startsWith("-");
  const [intRaw, fracRaw = ""] = (negative ? value.slice(1) : value).split(".");
  const int = intRaw.replace(/^0+(?=\d)/, "") || "0";
  let frac = fracRaw.replace(/0+$/, "");
  if (frac.length < min) frac = frac.padEnd(min, "0");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${grouped}${frac ? `.${frac}` : ""}`;
}

export const formatMoney = (value: string, code: string) => `${formatAmount(value)} ${code}`;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "31 Dec 2026" (the UTC day: due dates are UTC dates). */
export function formatDate(value: string | Date): string {
  const d = typeof value === "string" ? new Date(value) : value;
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** "31 Dec 2026, 14:05 UTC". */
export function formatDateTime(value: string | Date): string {
  const d = typeof value === "string" ? new Date(value) : value;
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `${formatDate(d)}, ${hh}:${mm} UTC`;
}

export const isMainnet = (passphrase: string) => passphrase === MAINNET_PASSPHRASE;

export const networkLabel = (passphrase: string) =>
  isMainnet(passphrase) ? "Stellar public network" : "Stellar testnet";

/** A public ledger explorer's page for a transaction. */
export const explorerTxUrl = (passphrase: string, hash: string) =>
  `https://stellar.expert/explorer/${isMainnet(passphrase) ? "public" : "testnet"}/tx/${hash}`;

/** "≈ $12.34 USD" for an XLM amount at a USD price; null when the price is unusable. */
export function approxUsd(amount: string, usd: number): string | null {
  const value = Number(amount) * usd;
  if (!Number.isFinite(value) || !(usd > 0)) return null;
  const text = value.toLocaleString("en-US", {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return `≈ $${text} USD`;
}
