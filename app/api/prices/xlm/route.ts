import { defineRoute, methods } from "@/lib/http/route";
import { getXlmPrice } from "@/lib/prices/xlm-price";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getXlmPrice, ({ ctx }) => getXlmPrice(ctx)),
);
