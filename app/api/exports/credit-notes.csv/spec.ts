import { operation } from "@/lib/http/route";
import { exportQuerySchema } from "@/lib/schemas/exports";
import { costlyLimit } from "../../common-errors";
import { badExportQuery, csvSuccess } from "../csv-reply";

export const exportCreditNotes = operation({
  method: "GET",
  path: "/api/exports/credit-notes.csv",
  operationId: "exportCreditNotes",
  tag: "Invoices",
  summary: "Credit notes as CSV (accounting)",
  description:
    "Your credit notes, oldest first, created in [`from`, `to`): number, id, date, the invoice it corrects (number and id), reason, `net` (subtotal less its discount share), `taxAmount`, `total`, `amountsIn` (the invoice's price currency, else its asset), the tax in the invoice's tax currency when it has one, the refund it goes with, network. Book each as a negative sale of its invoice's period. Same format, injection guard and streaming as the other exports. Through an API key (`invoices:read`), only the key's network.",
  auth: "authed",
  scope: ["invoices:read"],
  limit: costlyLimit,
  query: exportQuerySchema,
  responses: [csvSuccess("credit-note")],
  errors: [badExportQuery],
});
