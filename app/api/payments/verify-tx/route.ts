import { methods, publicEndpoint, reply } from "@/lib/http/endpoint";
import { verifyTxSchema } from "@/lib/schemas/payments";
import { verifiedTransactionSerializer } from "@/lib/serializers/payments";
import { networkName, resolveNetwork } from "@/lib/services/invoices/network";
import { verifyTransaction } from "@/lib/services/payments/verify-tx";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: publicEndpoint(
    async ({ ctx, body }) => {
      const input = await body(verifyTxSchema);
      const passphrase = resolveNetwork(input.network, input.networkPassphrase);
      const tx = await verifyTransaction(ctx, {
        transactionHash: input.transactionHash,
        network: passphrase ? networkName(passphrase) : undefined,
      });
      return reply(tx, verifiedTransactionSerializer);
    },
    { internalError: "Failed to verify transaction" },
  ),
});
