import { defineRoute, methods } from "@/lib/http/route";
import { networkName, resolveNetwork } from "@/lib/services/invoices/network";
import { verifyTransaction } from "@/lib/services/payments/verify-tx";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.verifyTransaction, async ({ ctx, body }) => {
    const passphrase = resolveNetwork(body.network, body.networkPassphrase);
    return verifyTransaction(ctx, {
      transactionHash: body.transactionHash,
      network: passphrase ? networkName(passphrase) : undefined,
    });
  }),
);
