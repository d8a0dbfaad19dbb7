/**
 * The Horizon client lives with the Horizon ledger source (lib/ledger-sources/horizon/
 * client.ts); app code reaches the network through `ledgerSourceFor` (lib/ledger-sources).
 * Kept for the tests that drive the client itself (tests/ledger-stream.test.ts).
 */
export {
  type HorizonClient,
  HorizonError,
  type HorizonFailure,
  horizonFor,
  type SubmitResponse,
} from "@/lib/ledger-sources/horizon/client";
