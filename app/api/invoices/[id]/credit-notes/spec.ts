import {
  INVALID_CREDIT,
  LINES_OR_AMOUNT,
  NOTHING_TO_CREDIT,
  OVER_ROW,
  OVER_TOTAL,
} from "@/lib/domain/credit-note";
import {
  BusinessRuleError,
  ConflictError,
  NotFoundError,
  ValidationError,
} from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { createCreditNoteSchema } from "@/lib/schemas/credit-notes";
import { idPath } from "@/lib/schemas/wire";
import { creditNoteSerializer } from "@/lib/serializers/credit-notes";
import {
  LINK_NOT_CREDITED,
  NOT_SENT,
  REFUND_ALREADY_CREDITED,
  REFUND_NOT_OF_INVOICE,
} from "@/lib/services/credit-notes/credit-notes";
import { invoiceNotFound, notOwner } from "../../../common-errors";

export const createCreditNote = operation({
  method: "POST",
  path: "/api/invoices/{id}/credit-notes",
  operationId: "createCreditNote",
  tag: "Invoices",
  summary: "Issue a credit note for a sent invoice",
  description:
    "Corrects a sent invoice, which itself never changes (docs/decisions.md, Credit notes). Nothing but `reason`: a full credit of all that is still uncredited; `lines` (`lineIndex` or `lineItemId`, `quantity` default all that is left of the line): those lines, computed with the invoice's own tax rules (per row, half up) and their share of its discount; `amount`: a credit on the whole invoice of that total, tax included, shared among its tax rates in proportion to what each has left. Never more than the invoice still has uncredited, per line and in total (400 naming the field). Numbered in the wallet's own gap-free series `CN-0001`, `CN-0002`, ... It lowers the invoice's `amountDue` (`amountCredited`); a credit note that leaves nothing due on a payable invoice closes it: CANCELLED when nothing was paid, PAID otherwise. `refundId` links a refund of this invoice (one credit note per refund). Audit `CREDITED`, event `credit_note.created`, and an email to the client with the credit note's PDF, in the same transaction. Honours `Idempotency-Key`.",
  auth: "authed",
  scope: ["invoices:write"],
  idempotent: true,
  params: idPath,
  body: {
    schema: createCreditNoteSchema,
    examples: {
      full: { summary: "Full credit", value: { reason: "Invoice issued to the wrong company" } },
      lines: {
        summary: "Chosen lines and quantities",
        value: { reason: "One day not worked", lines: [{ lineIndex: 0, quantity: "1" }] },
      },
      amount: {
        summary: "An amount on the whole invoice",
        value: { reason: "Goodwill", amount: "50" },
      },
    },
  },
  responses: [{ status: 201, description: "The credit note", serializer: creditNoteSerializer }],
  errors: [
    new BusinessRuleError("Only a sent invoice can be credited. Current status: DRAFT"),
    new BusinessRuleError(NOT_SENT),
    new BusinessRuleError(LINK_NOT_CREDITED),
    new ValidationError(NOTHING_TO_CREDIT, { lines: NOTHING_TO_CREDIT }),
    new ValidationError(LINES_OR_AMOUNT, { amount: LINES_OR_AMOUNT }),
    new ValidationError(
      "amount must not exceed what is left to credit on the invoice (100.0000000)",
      {
        amount: "amount must not exceed what is left to credit on the invoice (100.0000000)",
      },
    ),
    new ValidationError(INVALID_CREDIT, {
      "lines.0.quantity": "quantity must not exceed what is left to credit on this line (1.00)",
    }),
    new ValidationError(OVER_TOTAL, { lines: OVER_TOTAL }),
    new ValidationError(OVER_ROW, { lines: OVER_ROW }),
    new ValidationError(INVALID_REQUEST, { reason: "reason is required" }),
    new NotFoundError(REFUND_NOT_OF_INVOICE, { refundId: REFUND_NOT_OF_INVOICE }),
    new ConflictError(REFUND_ALREADY_CREDITED, { refundId: REFUND_ALREADY_CREDITED }),
    notOwner,
    invoiceNotFound,
  ],
});
