import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { recurringSerializer } from "@/lib/serializers/recurring";
import { notOwner } from "../../../common-errors";
import { recurringNotFound } from "../../errors";

export const resumeRecurring = operation({
  method: "POST",
  path: "/api/recurring/{id}/resume",
  operationId: "resumeRecurring",
  tag: "Recurring invoices",
  summary: "Resume a recurring invoice",
  description:
    "Continues from the first period dated today or later: periods that fell while paused are skipped, never invoiced late. Resuming an active one changes nothing.",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  responses: [
    { status: 200, description: "The recurring invoice", serializer: recurringSerializer },
  ],
  errors: [notOwner, recurringNotFound],
});
