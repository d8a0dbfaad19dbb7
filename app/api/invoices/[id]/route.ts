import { serveFromFront } from "@/lib/http/front";
import { defineRoute, methods } from "@/lib/http/route";
import { deleteInvoice } from "@/lib/services/invoices/change-status";
import { updateInvoice } from "@/lib/services/invoices/update-invoice";
import { getPublicInvoice } from "@/lib/services/invoices/view-invoice";
import * as spec from "./spec";

const get = defineRoute(spec.getPublicInvoice, ({ ctx, params }) =>
  getPublicInvoice(ctx, params.id),
);
serveFromFront("publicInvoice", get);

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  get,
  defineRoute(spec.updateInvoice, ({ ctx, params, body }) => updateInvoice(ctx, params.id, body)),
  defineRoute(spec.deleteInvoice, async ({ ctx, params }) => {
    await deleteInvoice(ctx, params.id);
    return { id: params.id };
  }),
);
