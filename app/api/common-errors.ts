import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import {
  CREDIT_NOTE_NOT_FOUND,
  LINK_NOT_FOUND,
  QUOTE_NOT_FOUND,
  WEBHOOK_NOT_FOUND,
} from "@/lib/domain/not-found";
import type { LimitSpec } from "@/lib/http/route";
import { costlyPolicy } from "@/lib/ratelimit/policies";
import { INVOICE_NOT_FOUND } from "@/lib/services/invoices/store";

/** Errors several operations declare (their spec.ts); each is what the service throws. */
export const notOwner = new ForbiddenError("Unauthorized");
export const invoiceNotFound = new NotFoundError(INVOICE_NOT_FOUND);
export const linkNotFound = new NotFoundError(LINK_NOT_FOUND);
export const webhookNotFound = new NotFoundError(WEBHOOK_NOT_FOUND);
export const creditNoteNotFound = new NotFoundError(CREDIT_NOTE_NOT_FOUND);
export const quoteNotFound = new NotFoundError(QUOTE_NOT_FOUND);

/**
 * The per-IP budget of the costly operations (PDF, exports, email, profile save): one counter
 * per client IP across them all, whichever wallets sign in from it (docs/decisions.md, Limits).
 */
export const costlyLimit: LimitSpec = {
  policy: costlyPolicy,
  per: "ip",
  note: "30 PDF, export, email and profile requests per minute per IP address, all wallets together",
};
