import { ConflictError, ForbiddenError, ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { createRecurringSchema } from "@/lib/schemas/recurring";
import { recurringListSerializer, recurringSerializer } from "@/lib/serializers/recurring";
import { WALLET_MISMATCH } from "@/lib/services/invoices/create-invoice";
import { RECURRING_LIMIT_REACHED } from "@/lib/services/recurring/schedules";
import {
  END_BEFORE_START,
  NOT_BOTH_LIMITS_ERROR,
  START_IN_PAST,
  TEMPLATE_CLIENT_NOT_FOUND,
} from "./errors";

export const listRecurring = operation({
  method: "GET",
  path: "/api/recurring",
  operationId: "listRecurring",
  tag: "Recurring invoices",
  summary: "List recurring invoices",
  description:
    "The caller's recurring invoices, newest first (an API key sees its network's only); deleted ones left out.",
  auth: "authed",
  scope: ["invoices:read"],
  responses: [
    { status: 200, description: "The recurring invoices", serializer: recurringListSerializer },
  ],
});

export const createRecurring = operation({
  method: "POST",
  path: "/api/recurring",
  operationId: "createRecurring",
  tag: "Recurring invoices",
  summary: "Create a recurring invoice",
  description:
    "A template (the create-invoice body without `dueDate`, `invoiceNumber` and the client-saving flags: several line items, tax, discount, `priceCurrency`, a saved client by `clientId`...) and a schedule. Each period's invoice is made from it by the create-invoice service: a `clientId` is read then (the saved client's details as they are on that day; a deleted one refuses the period, shown as `lastRefusal`, until the template names another), and a fiat-priced invoice is quoted when its client pays, like any other. The template's 400s name its fields as `template.<field>` (`template.lineItems.1.rate`). The worker (or `/api/cron/recurring`) creates each period's invoice once on its date, under the wallet's next number, due `dueInDays` later, and sends it (emailing the client) when `autoSend` is true. Month ends follow the calendar: from Jan 31, Feb 28/29, Mar 31, Apr 30. Each period's invoice counts against the same creation limit as `POST /api/invoices` (20 per hour per wallet): a period over it waits for the next run, and the refusal is shown on the recurring invoice. At most 50 recurring invoices per wallet (deleted ones do not count; 409).",
  auth: "authed",
  scope: ["invoices:write"],
  body: {
    schema: createRecurringSchema,
    examples: {
      savedClient: {
        summary: "EUR-priced, taxed, several lines, for a saved client",
        value: {
          template: {
            clientId: "cm1clientexample00000000",
            title: "Monthly retainer",
            currency: "USDC",
            priceCurrency: "EUR",
            taxRate: "20",
            lineItems: [
              { description: "Retainer", quantity: "1", rate: "1200" },
              { description: "Support hours", quantity: "3.5", rate: "80" },
            ],
          },
          interval: "month",
          startDate: "2027-01-31",
          dueInDays: 14,
        },
      },
      monthly: {
        summary: "Monthly retainer, 12 invoices",
        value: {
          template: {
            clientName: "Ada Client",
            clientEmail: "ada@example.com",
            title: "Monthly retainer",
            currency: "USDC",
            lineItems: [{ description: "Retainer", quantity: "1", rate: "1500" }],
          },
          interval: "month",
          startDate: "2027-01-31",
          count: 12,
          dueInDays: 14,
        },
      },
    },
  },
  responses: [
    { status: 201, description: "The recurring invoice", serializer: recurringSerializer },
  ],
  errors: [
    new ValidationError(INVALID_REQUEST),
    START_IN_PAST,
    END_BEFORE_START,
    NOT_BOTH_LIMITS_ERROR,
    TEMPLATE_CLIENT_NOT_FOUND,
    new ForbiddenError(WALLET_MISMATCH),
    new ConflictError(RECURRING_LIMIT_REACHED),
  ],
});
