import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { recurringSerializer } from "@/lib/serializers/recurring";
import { notOwner } from "../../../common-errors";
import { recurringNotFound } from "../../errors";

export const pauseRecurring = operation({
  method: "POST",
  path: "/api/recurring/{id}/pause",
  operationId: "pauseRecurring",
  tag: "Recurring invoices",
  summary: "Pause a recurring invoice",
  description: "No invoices are made while paused; pausing again changes nothing.",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  responses: [
    { status: 200, description: "The recurring invoice", serializer: recurringSerializer },
  ],
  errors: [notOwner, recurringNotFound],
});
