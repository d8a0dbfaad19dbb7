import { defineRoute, methods } from "@/lib/http/route";
import { deleteClient } from "@/lib/services/clients/manage-clients";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.deleteClient, async ({ ctx, params }) => {
    await deleteClient(ctx, params.id);
    return { id: params.id };
  }),
);
