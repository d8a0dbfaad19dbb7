import { authedEndpoint, methods, reply } from "@/lib/http/endpoint";
import { clientDeletedSerializer } from "@/lib/serializers/clients";
import { deleteClient } from "@/lib/services/clients/manage-clients";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  DELETE: authedEndpoint<{ id: string }>(async ({ ctx, params }) => {
    await deleteClient(ctx, params.id);
    return reply({ id: params.id }, clientDeletedSerializer);
  }),
});
