import { parseWith } from "@/lib/http/body";
import { authedEndpoint, methods, reply } from "@/lib/http/endpoint";
import { defaultPageSize, queryObject } from "@/lib/http/forms";
import { invoiceCreatePolicy } from "@/lib/ratelimit/policies";
import { createInvoiceSchema, listInvoicesQuerySchema } from "@/lib/schemas/invoices";
import { invoicePageSerializer, ownerInvoiceSerializer } from "@/lib/serializers/invoices";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { listInvoices } from "@/lib/services/invoices/list-invoices";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: authedEndpoint(async ({ ctx, body, limit }) => {
    await limit(invoiceCreatePolicy(ctx.config), `w:${ctx.wallet}`);
    const input = await body(createInvoiceSchema);
    return reply(await createInvoice(ctx, input), ownerInvoiceSerializer(ctx.config.appUrl), 201);
  }),
  GET: authedEndpoint(async ({ ctx, query, form }) => {
    const q = parseWith(listInvoicesQuerySchema, queryObject(query));
    const page = await listInvoices(ctx, { ...q, defaultLimit: defaultPageSize(form) });
    return reply(page, invoicePageSerializer(ctx.config.appUrl));
  }),
});
