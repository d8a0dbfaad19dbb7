// Per-invoice muxed addresses (docs/decisions.md, Muxed addresses). Pure rules; the `M...`
// strkey itself is encoded in lib/stellar/muxed.ts.

/** The largest muxed id an invoice gets: ids are random in 1..2^63-1 (db/schema/invoices.ts). */
export const MAX_INVOICE_MUXED_ID = (1n << 63n) - 1n;

/** A muxed id as the ledger carries it: a decimal uint64 (0..2^64-1), no sign, no leading zero. */
export function isMuxedId(value: string): boolean {
  return /^(0|[1-9]\d{0,19})$/.test(value) && BigInt(value) < 1n << 64n;
}

/**
 * Whether a muxed id can be an invoice's (1..2^63-1): only those are looked up (the column is
 * a signed bigint), so a source's odd `to_muxed_id` never reaches the database.
 */
export function mayNameInvoice(value: string): boolean {
  return isMuxedId(value) && BigInt(value) >= 1n && BigInt(value) <= MAX_INVOICE_MUXED_ID;
}

/**
 * Whether a payer is asked to pay the invoice's muxed address (`M...`) rather than the
 * freelancer's G address: always a payer that cannot attach a memo (a contract account, `C...`:
 * a smart wallet pays through the asset contract's `transfer`, which takes no memo), and every
 * payer when MUXED_DESTINATIONS=on. The memo is still asked of classic payers.
 */
export function paysMuxed(opts: { muxedDestinations: boolean; sender?: string | null }): boolean {
  return opts.muxedDestinations || isContractAddress(opts.sender);
}

/** A contract address (`C...`, 56 characters of base32): a smart wallet. The shape only. */
export function isContractAddress(address: string | null | undefined): boolean {
  return typeof address === "string" && /^C[A-Z2-7]{55}$/.test(address);
}
