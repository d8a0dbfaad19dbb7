import { ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { INVALID_SEARCH_Q } from "@/lib/schemas/common";
import { listCreditNotesQuerySchema } from "@/lib/schemas/credit-notes";
import { OFFSET_WITH_CURSOR } from "@/lib/schemas/invoices";
import { creditNotePageSerializer } from "@/lib/serializers/credit-notes";
import { NO_SUCH_CREDIT_NOTE } from "@/lib/services/credit-notes/credit-notes";

export const listCreditNotes = operation({
  method: "GET",
  path: "/api/credit-notes",
  operationId: "listCreditNotes",
  tag: "Invoices",
  summary: "List your credit notes",
  description:
    "The caller's credit notes, newest first, `limit`/`offset` pages as GET /api/invoices (default 50 in Form B, 20 in Form A; at most 100); `invoiceId` keeps one invoice's. Or page with `starting_after=<the last id of the previous page>` (keyset; not with `offset`; one of the caller's credit notes, a 400 otherwise). `q` searches (1 to 200 characters once trimmed; a 400 naming `q` otherwise): every word must start a word of the credit note's number, its invoice's client (name, company, email) and title, its reason, its lines' descriptions or its invoice's number, in any case and with or without accents; the best matches come first (the whole query as the number, then words that start the number, the client, the email, the title, the rest), ties newest first, and `starting_after` pages through that ranking.",
  auth: "authed",
  scope: ["invoices:read"],
  query: listCreditNotesQuerySchema,
  responses: [{ status: 200, description: "A page", serializer: creditNotePageSerializer }],
  errors: [
    new ValidationError(INVALID_REQUEST, { starting_after: NO_SUCH_CREDIT_NOTE }),
    new ValidationError(INVALID_REQUEST, { offset: OFFSET_WITH_CURSOR }),
    new ValidationError(INVALID_REQUEST, { q: INVALID_SEARCH_Q }),
  ],
});
