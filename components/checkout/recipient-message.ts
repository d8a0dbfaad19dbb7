/**
 * The ledger's `op_no_trust` message as submit answers it (LEDGER_MESSAGES in
 * lib/stellar/errors.ts; tests/recipient-readiness.test.ts keeps the two equal). It is written
 * to whoever holds the wallet, but on a payment the ledger says it about the destination: the
 * payer's own missing trustline is `op_src_no_trust`.
 */
export const LEDGER_NO_TRUST =
  "Your wallet does not have a trustline for this asset. Please add a trustline in your wallet.";

/** What the checkout shows instead: the recipient's problem, not the payer's. */
export const RECIPIENT_NO_TRUST =
  "The recipient's wallet cannot receive this asset (it has no trustline for it, or it was removed). Nothing was paid. Ask the sender of this invoice to add a trustline, then try again.";

/**
 * The checkout's words for an API refusal (docs/decisions.md, Recipient readiness): the API
 * message stays the contract's; only the page explains it from the payer's side.
 */
export const payerWords = (message: string): string =>
  message === LEDGER_NO_TRUST ? RECIPIENT_NO_TRUST : message;
