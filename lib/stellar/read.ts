import type { LedgerAccount } from "@/lib/ledger-sources/interface";

/**
 * Reading the network goes through a ledger source (lib/ledger-sources, `ledgerSourceFor`),
 * which answers in the domain's types; Horizon's records and their transform live in
 * lib/ledger-sources/horizon/transform.ts (re-exported here for the unit tests that read them).
 */
export {
  type HorizonAccount,
  type HorizonPage,
  type HorizonPaymentRecord,
  type HorizonTransaction,
  operationFromRecord,
  transactionFromRecord,
} from "@/lib/ledger-sources/horizon/transform";

/** Balance line of an asset (native when issuer is null). */
export function balanceOf(
  account: LedgerAccount,
  asset: { code: string; issuer: string | null },
): LedgerAccount["balances"][number] | undefined {
  return account.balances.find((b) =>
    asset.issuer === null
      ? b.asset_type === "native"
      : b.asset_code === asset.code && b.asset_issuer === asset.issuer,
  );
}
