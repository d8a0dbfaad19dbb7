import { defineRoute, methods } from "@/lib/http/route";
import { walletReadiness } from "@/lib/services/payments/recipient-readiness";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getWalletReadiness, ({ ctx, query }) => walletReadiness(ctx, query)),
);
