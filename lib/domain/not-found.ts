// The 404 messages the specs declare (app/api/common-errors.ts) and the services throw, here
// on their own so a route's spec does not load those services (and what they load: email,
// PDF, webhooks) to name an error (ARCHITECTURE.md, Memory: cold start).

export const CREDIT_NOTE_NOT_FOUND = "Credit note not found";
export const LINK_NOT_FOUND = "Link not found";
export const QUOTE_NOT_FOUND = "Quote not found";
export const WEBHOOK_NOT_FOUND = "Webhook not found";
