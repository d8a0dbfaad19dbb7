import { ForbiddenError, ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { updateRecurringSchema } from "@/lib/schemas/recurring";
import { idPath } from "@/lib/schemas/wire";
import {
  recurringDeletedSerializer,
  recurringDetailSerializer,
  recurringSerializer,
} from "@/lib/serializers/recurring";
import { WALLET_MISMATCH } from "@/lib/services/invoices/create-invoice";
import { notOwner } from "../../common-errors";
import {
  anchorFixed,
  END_BEFORE_START,
  NOT_BOTH_LIMITS_ERROR,
  recurringNotFound,
  START_IN_PAST,
  TEMPLATE_CLIENT_NOT_FOUND,
} from "../errors";

export const getRecurring = operation({
  method: "GET",
  path: "/api/recurring/{id}",
  operationId: "getRecurring",
  tag: "Recurring invoices",
  summary: "A recurring invoice and the invoices it made",
  auth: "authed",
  scope: ["invoices:read"],
  params: idPath,
  responses: [
    {
      status: 200,
      description: "The recurring invoice with its invoices, newest period first",
      serializer: recurringDetailSerializer,
    },
  ],
  errors: [notOwner, recurringNotFound],
});

export const updateRecurring = operation({
  method: "PATCH",
  path: "/api/recurring/{id}",
  operationId: "updateRecurring",
  tag: "Recurring invoices",
  summary: "Change the template or the schedule",
  description:
    "Owner only. Applies to the invoices still to come; those already made are unchanged (schedule changes are not in any invoice's audit log: no invoice changes). `template` replaces the template as a whole and is checked as in create (400s name `template.<field>`). A new `endDate` or `count` replaces the old limit. Once an invoice has been made, `interval`, `intervalCount` and `startDate` are fixed (409): create a new recurring invoice instead.",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  body: {
    schema: updateRecurringSchema,
    examples: {
      raise: {
        summary: "A new rate from the next invoice",
        value: {
          template: {
            clientName: "Ada Client",
            clientEmail: "ada@example.com",
            currency: "USDC",
            lineItems: [{ description: "Retainer", quantity: "1", rate: "1650" }],
          },
          dueInDays: 30,
        },
      },
    },
  },
  responses: [
    { status: 200, description: "The recurring invoice", serializer: recurringSerializer },
  ],
  errors: [
    new ValidationError(INVALID_REQUEST),
    START_IN_PAST,
    END_BEFORE_START,
    NOT_BOTH_LIMITS_ERROR,
    TEMPLATE_CLIENT_NOT_FOUND,
    new ForbiddenError(WALLET_MISMATCH),
    notOwner,
    recurringNotFound,
    anchorFixed,
  ],
});

export const deleteRecurring = operation({
  method: "DELETE",
  path: "/api/recurring/{id}",
  operationId: "deleteRecurring",
  tag: "Recurring invoices",
  summary: "Stop and delete a recurring invoice",
  description: "No more invoices are made; the ones it made stay.",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  responses: [{ status: 200, description: "Deleted", serializer: recurringDeletedSerializer }],
  errors: [notOwner, recurringNotFound],
});
