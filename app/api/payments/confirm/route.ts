import { defineRoute, methods } from "@/lib/http/route";
import { confirmPayment } from "@/lib/services/payments/settle";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.confirmPayment, ({ ctx, body }) => confirmPayment(ctx, body)),
);
