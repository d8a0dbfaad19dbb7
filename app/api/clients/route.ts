import { authedEndpoint, methods, reply } from "@/lib/http/endpoint";
import { clientInputSchema } from "@/lib/schemas/clients";
import { clientListSerializer, clientSerializer } from "@/lib/serializers/clients";
import { listClients } from "@/lib/services/clients/manage-clients";
import { upsertClient } from "@/lib/services/clients/upsert-client";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: authedEndpoint(async ({ ctx }) => reply(await listClients(ctx), clientListSerializer), {
    internalError: "Failed to fetch clients",
  }),
  /** Upsert on (wallet, email): an existing client keeps its id. */
  POST: authedEndpoint(
    async ({ ctx, body }) => {
      const input = await body(clientInputSchema);
      return reply(await upsertClient(ctx, input), clientSerializer, 201);
    },
    { internalError: "Failed to save client" },
  ),
});
