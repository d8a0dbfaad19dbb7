import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { INVOICE_NOT_FOUND } from "@/lib/services/invoices/store";
import { LINK_NOT_FOUND } from "@/lib/services/links/links";
import { WEBHOOK_NOT_FOUND } from "@/lib/webhooks/subscriptions";

/** Errors several operations declare (their spec.ts); each is what the service throws. */
export const notOwner = new ForbiddenError("Unauthorized");
export const invoiceNotFound = new NotFoundError(INVOICE_NOT_FOUND);
export const linkNotFound = new NotFoundError(LINK_NOT_FOUND);
export const webhookNotFound = new NotFoundError(WEBHOOK_NOT_FOUND);
