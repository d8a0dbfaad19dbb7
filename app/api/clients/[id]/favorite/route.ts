import { defineRoute, methods } from "@/lib/http/route";
import { setClientFavorite } from "@/lib/services/clients/manage-clients";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.setClientFavorite, ({ ctx, params, body }) =>
    setClientFavorite(ctx, params.id, body.isFavorite),
  ),
);
