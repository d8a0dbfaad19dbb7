import { BusinessRuleError, NotFoundError } from "@/lib/domain/errors";
import { ALREADY_VOIDED, ONLY_MANUAL_VOIDED, VOID_PAID_INVOICE } from "@/lib/domain/manual-payment";
import { operation } from "@/lib/http/route";
import { idParamSchema } from "@/lib/schemas/common";
import { ownerInvoiceSerializer } from "@/lib/serializers/invoices";
import { PAYMENT_NOT_FOUND } from "@/lib/services/refunds/create-refund";
import { z } from "@/lib/zod";
import { invoiceNotFound, notOwner } from "../../../../common-errors";

export const voidManualPayment = operation({
  method: "DELETE",
  path: "/api/invoices/{id}/payments/{paymentId}",
  operationId: "voidManualPayment",
  tag: "Invoices",
  summary: "Void a payment recorded by hand",
  description:
    "The owner withdraws a payment received outside Stellar that was recorded by mistake: it stays listed with status VOIDED and no longer counts; `amountPaid` goes down by what it counted for. Audit PAYMENT_VOIDED, event `payment.voided`, in one transaction; the status stays. A ledger payment is never voided (refund it instead), and a PAID invoice's payments are not voided (PAID is final). Answers the owner view.",
  auth: "authed",
  scope: ["invoices:write"],
  params: z.object({
    id: idParamSchema.meta({ description: "Invoice id" }),
    paymentId: idParamSchema.meta({ description: "Payment id (from the owner view)" }),
  }),
  responses: [
    {
      status: 200,
      description: "Voided: the invoice as it is now",
      serializer: ownerInvoiceSerializer,
    },
  ],
  errors: [
    new BusinessRuleError(ONLY_MANUAL_VOIDED),
    new BusinessRuleError(ALREADY_VOIDED),
    new BusinessRuleError(VOID_PAID_INVOICE),
    notOwner,
    invoiceNotFound,
    new NotFoundError(PAYMENT_NOT_FOUND),
  ],
});
