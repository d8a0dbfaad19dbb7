import { ConflictError, NotFoundError, ValidationError } from "@/lib/domain/errors";
import { NOT_BOTH_LIMITS } from "@/lib/schemas/recurring";
import { SAVED_CLIENT_NOT_FOUND } from "@/lib/services/clients/saved-client";
import {
  ANCHOR_FIXED,
  END_BEFORE_START as END,
  RECURRING_NOT_FOUND,
  START_IN_PAST as START,
} from "@/lib/services/recurring/schedules";

/** Errors the recurring operations declare (their spec.ts); each is what the service throws. */
export const recurringNotFound = new NotFoundError(RECURRING_NOT_FOUND);
export const START_IN_PAST = new ValidationError("Invalid request", { startDate: START });
export const END_BEFORE_START = new ValidationError("Invalid request", { endDate: END });
export const NOT_BOTH_LIMITS_ERROR = new ValidationError("Invalid request", {
  count: NOT_BOTH_LIMITS,
});
export const anchorFixed = new ConflictError(ANCHOR_FIXED);
/** The template's saved client is not (or no longer) the caller's. */
export const TEMPLATE_CLIENT_NOT_FOUND = new ValidationError(SAVED_CLIENT_NOT_FOUND, {
  "template.clientId": SAVED_CLIENT_NOT_FOUND,
});
