import { NotFoundError } from "@/lib/domain/errors";
import type { PaymentTransaction } from "@/lib/domain/payment-match";
import { ledgerSourceFor } from "@/lib/ledger-sources";
import type { NetworkName } from "@/lib/schemas/common";
import { viaLedger } from "@/lib/stellar/errors";
import type { ServiceContext } from "../context";

export type VerifiedTransaction = PaymentTransaction & {
  network: NetworkName;
  networkPassphrase: string;
};

/**
 * Any transaction, not tied to an invoice: every payment operation (payments, path
 * payments, create_account). Without a network it is looked up on testnet, then mainnet.
 */
export async function verifyTransaction(
  ctx: ServiceContext,
  input: { transactionHash: string; network?: NetworkName },
): Promise<VerifiedTransaction> {
  const networks: NetworkName[] = input.network ? [input.network] : ["testnet", "mainnet"];
  for (const network of networks) {
    const source = ledgerSourceFor(ctx.config, network);
    const tx = await viaLedger(() => source.transaction(input.transactionHash));
    if (tx) return { ...tx, network, networkPassphrase: source.passphrase };
  }
  throw new NotFoundError("Transaction not found");
}
