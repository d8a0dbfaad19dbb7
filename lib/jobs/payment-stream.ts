/**
 * The ledger stream is the Horizon source's wake-up (lib/ledger-sources/horizon/
 * ledger-stream.ts), reached through `LedgerSource.followLedgers`. Kept for
 * tests/ledger-stream.test.ts, which drives it over a Horizon client.
 */
export { followLedgers } from "@/lib/ledger-sources/horizon/ledger-stream";
