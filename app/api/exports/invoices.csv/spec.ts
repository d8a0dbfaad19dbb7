import { operation } from "@/lib/http/route";
import { exportQuerySchema } from "@/lib/schemas/exports";
import { costlyLimit } from "../../common-errors";
import { badExportQuery, csvSuccess } from "../csv-reply";

export const exportInvoices = operation({
  method: "GET",
  path: "/api/exports/invoices.csv",
  operationId: "exportInvoices",
  tag: "Invoices",
  summary: "Invoices as CSV (accounting)",
  description:
    "Your invoices and payment links (not deleted), oldest first, created in [`from`, `to`): number, id, kind, status, title, client, `currency` (the asset paid in), `priceCurrency` (USD or EUR when priced in fiat, then the amounts are fiat), subtotal, tax rate and amount, discount, total, `amountPaid`, `amountDue`, created, sent, due, paid and cancelled times, network. Same format, injection guard and streaming as the payments export. Through an API key (`invoices:read`), only the key's network.",
  auth: "authed",
  scope: ["invoices:read"],
  limit: costlyLimit,
  query: exportQuerySchema,
  responses: [csvSuccess("invoice")],
  errors: [badExportQuery],
});
