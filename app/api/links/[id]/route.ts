import { methods, publicEndpoint, reply } from "@/lib/http/endpoint";
import { linkSerializer } from "@/lib/serializers/links";
import { getLink } from "@/lib/services/links/links";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: publicEndpoint<{ id: string }>(async ({ ctx, params }) =>
    reply(await getLink(ctx, params.id), linkSerializer(ctx.config.appUrl)),
  ),
});
