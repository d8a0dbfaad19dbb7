import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { creditNoteSerializer } from "@/lib/serializers/credit-notes";
import { creditNoteNotFound, notOwner } from "../../common-errors";

export const getCreditNote = operation({
  method: "GET",
  path: "/api/credit-notes/{id}",
  operationId: "getCreditNote",
  tag: "Invoices",
  summary: "A credit note",
  description:
    "The owner's credit note: its lines, tax breakdown and totals; 403 for another wallet's.",
  auth: "authed",
  scope: ["invoices:read"],
  params: idPath,
  responses: [{ status: 200, description: "The credit note", serializer: creditNoteSerializer }],
  errors: [notOwner, creditNoteNotFound],
});
