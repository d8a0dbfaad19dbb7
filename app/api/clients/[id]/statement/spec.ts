import { NotFoundError, RateLimitedError, ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { COSTLY_MESSAGE } from "@/lib/ratelimit/policies";
import { statementQuerySchema } from "@/lib/schemas/statements";
import { idPath } from "@/lib/schemas/wire";
import { statementSerializer } from "@/lib/serializers/statements";
import { CLIENT_NOT_FOUND } from "@/lib/services/clients/manage-clients";
import { notOwner } from "../../../common-errors";

export const getClientStatement = operation({
  method: "GET",
  path: "/api/clients/{id}/statement",
  operationId: "getClientStatement",
  tag: "Clients",
  summary: "A client's statement of account",
  description:
    "What the client owed at the start of [`from`, `to`] (both days inclusive, UTC), the period's invoices sent, payments received (applied amounts), refunds sent and credit notes in date order with the balance after each, and the closing balance, per currency (the invoice's unit: the price currency of a fiat-priced invoice, else its asset). Exact decimal strings; closing = opening + invoiced - paid + refunded - credited; a negative balance is a credit in the client's favour. The client's invoices are your sent invoices to the client's email. `format=csv` answers the same figures as CSV, `format=pdf` as a PDF in the client's language; those two count against the budget of the costly requests (30 PDF, export, email and profile requests per minute per IP address, all wallets together), the JSON does not. Through an API key (`invoices:read`), only the key's network.",
  auth: "authed",
  scope: ["invoices:read"],
  params: idPath,
  query: statementQuerySchema,
  responses: [
    { status: 200, description: "The statement (format=json)", serializer: statementSerializer },
    {
      status: 200,
      description: "The statement as CSV (format=csv)",
      raw: {
        contentType: "text/csv; charset=utf-8",
        headers: {
          "Content-Disposition": {
            description: '`attachment; filename="statement_2026-01-01_2026-01-31.csv"` (or `.pdf`)',
          },
        },
      },
    },
    {
      status: 200,
      description: "The statement as a PDF (format=pdf)",
      raw: { contentType: "application/pdf" },
    },
  ],
  errors: [
    new ValidationError(INVALID_REQUEST),
    notOwner,
    new NotFoundError(CLIENT_NOT_FOUND),
    new RateLimitedError(COSTLY_MESSAGE, 60),
  ],
});
