import { authedEndpoint, methods, reply } from "@/lib/http/endpoint";
import { cancelInvoiceSchema } from "@/lib/schemas/invoices";
import { cancelledInvoiceSerializer } from "@/lib/serializers/invoices";
import { cancelInvoice } from "@/lib/services/invoices/change-status";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: authedEndpoint<{ id: string }>(async ({ ctx, params, body }) => {
    const input = await body(cancelInvoiceSchema);
    return reply(await cancelInvoice(ctx, params.id, input?.reason), cancelledInvoiceSerializer);
  }),
});
