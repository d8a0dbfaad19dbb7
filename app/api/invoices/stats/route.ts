import { parseWith } from "@/lib/http/body";
import { authedEndpoint, methods, reply } from "@/lib/http/endpoint";
import { queryObject } from "@/lib/http/forms";
import { statsQuerySchema } from "@/lib/schemas/invoices";
import { statsSerializer } from "@/lib/serializers/invoices";
import { getInvoiceStats } from "@/lib/services/invoices/invoice-stats";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: authedEndpoint(async ({ ctx, query }) => {
    const q = parseWith(statsQuerySchema, queryObject(query));
    return reply(await getInvoiceStats(ctx, q), statsSerializer);
  }),
});
