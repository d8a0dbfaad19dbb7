import { authedEndpoint, methods, reply } from "@/lib/http/endpoint";
import { sentInvoiceSerializer } from "@/lib/serializers/invoices";
import { sendInvoice } from "@/lib/services/invoices/change-status";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: authedEndpoint<{ id: string }>(async ({ ctx, params }) =>
    reply(await sendInvoice(ctx, params.id), sentInvoiceSerializer(ctx.config.appUrl)),
  ),
});
