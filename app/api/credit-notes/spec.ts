import { operation } from "@/lib/http/route";
import { listCreditNotesQuerySchema } from "@/lib/schemas/credit-notes";
import { creditNotePageSerializer } from "@/lib/serializers/credit-notes";

export const listCreditNotes = operation({
  method: "GET",
  path: "/api/credit-notes",
  operationId: "listCreditNotes",
  tag: "Invoices",
  summary: "List your credit notes",
  description:
    "The caller's credit notes, newest first, `limit`/`offset` pages as GET /api/invoices (default 50 in Form B, 20 in Form A; at most 100); `invoiceId` keeps one invoice's.",
  auth: "authed",
  scope: ["invoices:read"],
  query: listCreditNotesQuerySchema,
  responses: [{ status: 200, description: "A page", serializer: creditNotePageSerializer }],
  errors: [],
});
