import { authedEndpoint, methods, publicEndpoint, reply } from "@/lib/http/endpoint";
import { updateInvoiceSchema } from "@/lib/schemas/invoices";
import {
  deletedInvoiceSerializer,
  ownerInvoiceSerializer,
  publicInvoiceSerializer,
} from "@/lib/serializers/invoices";
import { deleteInvoice } from "@/lib/services/invoices/change-status";
import { updateInvoice } from "@/lib/services/invoices/update-invoice";
import { getPublicInvoice } from "@/lib/services/invoices/view-invoice";

type P = { id: string };

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: publicEndpoint<P>(async ({ ctx, params }) =>
    reply(await getPublicInvoice(ctx, params.id), publicInvoiceSerializer),
  ),
  PATCH: authedEndpoint<P>(async ({ ctx, params, body }) => {
    const input = await body(updateInvoiceSchema);
    return reply(
      await updateInvoice(ctx, params.id, input),
      ownerInvoiceSerializer(ctx.config.appUrl),
    );
  }),
  DELETE: authedEndpoint<P>(async ({ ctx, params }) => {
    await deleteInvoice(ctx, params.id);
    return reply({ id: params.id }, deletedInvoiceSerializer);
  }),
});
