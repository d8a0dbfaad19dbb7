import { defaultPageSize } from "@/lib/http/forms";
import { serveFromFront } from "@/lib/http/front";
import { defineRoute, methods } from "@/lib/http/route";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { listInvoices } from "@/lib/services/invoices/list-invoices";
import * as spec from "./spec";

const list = defineRoute(spec.listInvoices, ({ ctx, query, form }) =>
  listInvoices(ctx, { ...query, defaultLimit: defaultPageSize(form) }),
);
serveFromFront("invoiceList", list);

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.createInvoice, ({ ctx, body }) => createInvoice(ctx, body)),
  list,
);
