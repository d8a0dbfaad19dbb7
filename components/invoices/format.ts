/**
 * Display helpers for the freelancer pages. Amounts stay decimal strings end to end: these
 * only trim and label them, they never turn an amount into a float.
 */

export const NETWORK_PASSPHRASES = {
  testnet: "Test SDF Network ; September 2015",
  mainnet: "Public Global Stellar Network ; September 2015",
} as const;

export type NetworkName = keyof typeof NETWORK_PASSPHRASES;

export const NETWORK_NAMES: readonly NetworkName[] = ["testnet", "mainnet"];

export const NETWORK_LABELS: Record<NetworkName, string> = {
  testnet: "Testnet",
  mainnet: "Mainnet",
};

export function networkOf(passphrase: string): NetworkName {
  return passphrase === NETWORK_PASSPHRASES.mainnet ? "mainnet" : "testnet";
}

/** The transaction on stellar.expert for the invoice's network. */
export function explorerTxUrl(hash: string, passphrase: string): string {
  const net = networkOf(passphrase) === "mainnet" ? "public" : "testnet";
  return `https://stellar.expert/explorer/${net}/tx/${hash}`;
}

/**
 * "1050.0000000" -> "1050.00", "0.1234500" -> "0.12345": trailing zeros go, at least two
 * decimals stay. String work only, so the digits shown are exactly the server's.
 */
export function formatAmount(amount: string | null | undefined, currency?: string): string {
  if (amount === null || amount === undefined || amount === "") return "—";
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(amount.trim());
  if (!match) return currency ? `${amount} ${currency}` : amount;
  const [, sign, whole, fraction = ""] = match;
  const trimmed = fraction.replace(/0+$/, "").padEnd(2, "0");
  const text = `${sign}${whole}.${trimmed}`;
  return currency ? `${text} ${currency}` : text;
}

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const dateTimeFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/** A due date is a UTC calendar day: shown in UTC so it never moves by a day. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateFormat.format(d);
}

/** A moment (created, paid, delivered), in the viewer's time zone. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTimeFormat.format(d);
}

export const shortAddress = (w: string) => (w.length > 12 ? `${w.slice(0, 4)}…${w.slice(-4)}` : w);

export const shortHash = (h: string) => (h.length > 16 ? `${h.slice(0, 8)}…${h.slice(-8)}` : h);

/** The public checkout page of an invoice, on this site. */
export function paymentPageUrl(id: string): string {
  return `${window.location.origin}/pay/${id}`;
}
