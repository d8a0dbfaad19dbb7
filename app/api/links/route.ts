import { authedEndpoint, methods, reply } from "@/lib/http/endpoint";
import { linkCreatePolicy } from "@/lib/ratelimit/policies";
import { createLinkSchema } from "@/lib/schemas/links";
import { linkListSerializer, linkSerializer } from "@/lib/serializers/links";
import { createLink, listLinks } from "@/lib/services/links/links";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: authedEndpoint(async ({ ctx, body, limit }) => {
    await limit(linkCreatePolicy(ctx.config), `w:${ctx.wallet}`);
    const input = await body(createLinkSchema);
    return reply(await createLink(ctx, input), linkSerializer(ctx.config.appUrl), 201);
  }),
  /** The caller's links, newest first (for the dashboard). */
  GET: authedEndpoint(async ({ ctx }) =>
    reply(await listLinks(ctx), linkListSerializer(ctx.config.appUrl)),
  ),
});
