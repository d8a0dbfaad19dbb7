import { authedEndpoint, methods, reply } from "@/lib/http/endpoint";
import { ownerInvoiceSerializer } from "@/lib/serializers/invoices";
import { getOwnerInvoice } from "@/lib/services/invoices/view-invoice";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: authedEndpoint<{ id: string }>(async ({ ctx, params }) =>
    reply(await getOwnerInvoice(ctx, params.id), ownerInvoiceSerializer(ctx.config.appUrl)),
  ),
});
