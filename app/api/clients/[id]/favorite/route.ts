import { authedEndpoint, methods, reply } from "@/lib/http/endpoint";
import { favoriteInputSchema } from "@/lib/schemas/clients";
import { clientSerializer } from "@/lib/serializers/clients";
import { setClientFavorite } from "@/lib/services/clients/manage-clients";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PATCH: authedEndpoint<{ id: string }>(
    async ({ ctx, params, body }) => {
      const { isFavorite } = await body(favoriteInputSchema);
      return reply(await setClientFavorite(ctx, params.id, isFavorite), clientSerializer);
    },
    { internalError: "Failed to update client" },
  ),
});
