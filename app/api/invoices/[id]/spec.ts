import {
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  ValidationError,
} from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { PERIOD_ORDER, updateInvoiceSchema } from "@/lib/schemas/invoices";
import { idPath } from "@/lib/schemas/wire";
import {
  deletedInvoiceSerializer,
  ownerInvoiceSerializer,
  publicInvoiceSerializer,
} from "@/lib/serializers/invoices";
import { NUMBER_TAKEN, WALLET_MISMATCH } from "@/lib/services/invoices/create-invoice";
import { invoiceNotFound, notOwner } from "../../common-errors";

const ONLY_DRAFT = new BusinessRuleError("Only invoices in DRAFT status can be modified");

export const getPublicInvoice = operation({
  method: "GET",
  path: "/api/invoices/{id}",
  operationId: "getPublicInvoice",
  tag: "Invoices",
  summary: "Public view of an invoice",
  description:
    "What the payer's page shows: who is paid and what for. Never emails, addresses, notes or the audit trail.",
  auth: "public",
  params: idPath,
  responses: [{ status: 200, description: "The public view", serializer: publicInvoiceSerializer }],
  errors: [invoiceNotFound],
});

export const updateInvoice = operation({
  method: "PATCH",
  path: "/api/invoices/{id}",
  operationId: "updateInvoice",
  tag: "Invoices",
  summary: "Update a draft",
  description:
    "Any subset of the creatable fields, in either form; totals are recomputed. DRAFT only; the status cannot be changed here.",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  body: {
    schema: updateInvoiceSchema,
    examples: {
      formB: {
        summary: "Form B",
        value: {
          title: "Website, phase 1",
          lineItems: [{ description: "Build", quantity: "2", rate: "500" }],
        },
      },
      formA: {
        summary: "Form A",
        value: { notes: "Net 30", items: [{ description: "Build", quantity: 2, rate: 500 }] },
      },
    },
  },
  responses: [
    {
      status: 200,
      description: "The updated invoice (owner view)",
      serializer: ownerInvoiceSerializer,
    },
  ],
  errors: [
    ONLY_DRAFT,
    new ValidationError(INVALID_REQUEST),
    new ValidationError(PERIOD_ORDER, { periodEnd: PERIOD_ORDER }),
    notOwner,
    new ForbiddenError(WALLET_MISMATCH),
    invoiceNotFound,
    new ConflictError(NUMBER_TAKEN),
  ],
});

export const deleteInvoice = operation({
  method: "DELETE",
  path: "/api/invoices/{id}",
  operationId: "deleteInvoice",
  tag: "Invoices",
  summary: "Delete a draft (soft delete)",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  responses: [{ status: 200, description: "Deleted", serializer: deletedInvoiceSerializer }],
  errors: [ONLY_DRAFT, notOwner, invoiceNotFound],
});
