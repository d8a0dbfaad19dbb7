import { defineRoute, methods } from "@/lib/http/route";
import { listClients } from "@/lib/services/clients/manage-clients";
import { upsertClient } from "@/lib/services/clients/upsert-client";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.listClients, ({ ctx }) => listClients(ctx)),
  defineRoute(spec.upsertClient, ({ ctx, body }) => upsertClient(ctx, body)),
);
