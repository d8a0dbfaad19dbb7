import { defineRoute, methods } from "@/lib/http/route";
import { getRates } from "@/lib/prices/rates";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getPrices, ({ ctx, query }) => getRates(ctx, query.pairs)),
);
