import * as authNonce from "@/app/api/auth/nonce/spec";
import * as authSession from "@/app/api/auth/session/spec";
import * as authSessions from "@/app/api/auth/sessions/spec";
import * as clientFavorite from "@/app/api/clients/[id]/favorite/spec";
import * as clientPortalSessions from "@/app/api/clients/[id]/portal-sessions/spec";
import * as client from "@/app/api/clients/[id]/spec";
import * as clientStatementSend from "@/app/api/clients/[id]/statement/send/spec";
import * as clientStatement from "@/app/api/clients/[id]/statement/spec";
import * as clients from "@/app/api/clients/spec";
import * as creditNoteEInvoice from "@/app/api/credit-notes/[id]/einvoice/spec";
import * as creditNotePdf from "@/app/api/credit-notes/[id]/pdf/spec";
import * as creditNote from "@/app/api/credit-notes/[id]/spec";
import * as creditNotes from "@/app/api/credit-notes/spec";
import * as cronEmails from "@/app/api/cron/emails/spec";
import * as cronExpire from "@/app/api/cron/expire/spec";
import * as cronRecurring from "@/app/api/cron/recurring/spec";
import * as cronWatcher from "@/app/api/cron/watcher/spec";
import * as cronWebhooks from "@/app/api/cron/webhooks/spec";
import * as documentsInvoice from "@/app/api/documents/[token]/invoice/spec";
import * as documentsReceipt from "@/app/api/documents/[token]/receipt/spec";
import * as events from "@/app/api/events/spec";
import * as exportCreditNotes from "@/app/api/exports/credit-notes.csv/spec";
import * as exportInvoices from "@/app/api/exports/invoices.csv/spec";
import * as exportPayments from "@/app/api/exports/payments.csv/spec";
import * as health from "@/app/api/health/spec";
import * as invoiceCancel from "@/app/api/invoices/[id]/cancel/spec";
import * as invoiceCreditNotes from "@/app/api/invoices/[id]/credit-notes/spec";
import * as invoiceDuplicate from "@/app/api/invoices/[id]/duplicate/spec";
import * as invoiceEInvoice from "@/app/api/invoices/[id]/einvoice/spec";
import * as invoiceEmail from "@/app/api/invoices/[id]/email/spec";
import * as invoiceEmails from "@/app/api/invoices/[id]/emails/spec";
import * as invoiceOwner from "@/app/api/invoices/[id]/owner/spec";
import * as paymentRefund from "@/app/api/invoices/[id]/payments/[paymentId]/refund/spec";
import * as manualPaymentVoid from "@/app/api/invoices/[id]/payments/[paymentId]/spec";
import * as manualPayment from "@/app/api/invoices/[id]/payments/spec";
import * as invoicePdf from "@/app/api/invoices/[id]/pdf/spec";
import * as invoiceSend from "@/app/api/invoices/[id]/send/spec";
import * as invoice from "@/app/api/invoices/[id]/spec";
import * as invoices from "@/app/api/invoices/spec";
import * as invoiceStats from "@/app/api/invoices/stats/spec";
import * as apiKey from "@/app/api/keys/[id]/spec";
import * as apiKeys from "@/app/api/keys/spec";
import * as linkCheckout from "@/app/api/links/[id]/checkout/spec";
import * as linkDeactivate from "@/app/api/links/[id]/deactivate/spec";
import * as linkPayments from "@/app/api/links/[id]/payments/spec";
import * as linkReactivate from "@/app/api/links/[id]/reactivate/spec";
import * as link from "@/app/api/links/[id]/spec";
import * as linkStatus from "@/app/api/links/[id]/status/spec";
import * as links from "@/app/api/links/spec";
import * as paymentEvents from "@/app/api/payments/[invoiceId]/events/spec";
import * as payIntent from "@/app/api/payments/[invoiceId]/pay-intent/spec";
import * as payOptions from "@/app/api/payments/[invoiceId]/pay-options/spec";
import * as paymentStatus from "@/app/api/payments/[invoiceId]/status/spec";
import * as confirm from "@/app/api/payments/confirm/spec";
import * as submit from "@/app/api/payments/submit/spec";
import * as verifyTx from "@/app/api/payments/verify-tx/spec";
import * as portalCreditNotePdf from "@/app/api/portal/credit-notes/[id]/pdf/spec";
import * as portalEInvoice from "@/app/api/portal/invoices/[id]/einvoice/spec";
import * as portalLink from "@/app/api/portal/link/spec";
import * as portalSignIn from "@/app/api/portal/sign-in/spec";
import * as portalSignOut from "@/app/api/portal/sign-out/spec";
import * as portal from "@/app/api/portal/spec";
import * as portalStatement from "@/app/api/portal/statement/spec";
import * as portalWalletSession from "@/app/api/portal/wallet-session/spec";
import * as prices from "@/app/api/prices/spec";
import * as price from "@/app/api/prices/xlm/spec";
import * as profileLogo from "@/app/api/profile/logo/[wallet]/spec";
import * as profile from "@/app/api/profile/spec";
import * as quoteAccept from "@/app/api/quotes/[id]/accept/spec";
import * as quoteDecline from "@/app/api/quotes/[id]/decline/spec";
import * as quoteOwner from "@/app/api/quotes/[id]/owner/spec";
import * as quotePdf from "@/app/api/quotes/[id]/pdf/spec";
import * as quoteSend from "@/app/api/quotes/[id]/send/spec";
import * as quote from "@/app/api/quotes/[id]/spec";
import * as quotes from "@/app/api/quotes/spec";
import * as recurringPause from "@/app/api/recurring/[id]/pause/spec";
import * as recurringResume from "@/app/api/recurring/[id]/resume/spec";
import * as recurringOne from "@/app/api/recurring/[id]/spec";
import * as recurring from "@/app/api/recurring/spec";
import * as refundSubmit from "@/app/api/refunds/submit/spec";
import * as teamMember from "@/app/api/team/[id]/spec";
import * as teamBooksSession from "@/app/api/team/books/[owner]/session/spec";
import * as teamBooks from "@/app/api/team/books/spec";
import * as team from "@/app/api/team/spec";
import * as unsubscribe from "@/app/api/unsubscribe/[token]/spec";
import * as walletReadiness from "@/app/api/wallet/readiness/spec";
import * as walletTrustline from "@/app/api/wallet/trustline/spec";
import * as walletTrustlineSubmit from "@/app/api/wallet/trustline/submit/spec";
import * as deliveryRetry from "@/app/api/webhooks/[id]/deliveries/[deliveryId]/retry/spec";
import * as deliveries from "@/app/api/webhooks/[id]/deliveries/spec";
import * as rotateSecret from "@/app/api/webhooks/[id]/rotate-secret/spec";
import * as webhook from "@/app/api/webhooks/[id]/spec";
import * as webhookTest from "@/app/api/webhooks/[id]/test/spec";
import * as webhooks from "@/app/api/webhooks/spec";
import type { Operation } from "@/lib/http/route";

/**
 * The registry: every operation of the API, read from the spec.ts beside each route.ts
 * (lib/http/route.ts says why the contract has its own file). The OpenAPI document lists them
 * in this order. Adding a route means adding its spec here; tests/openapi.test.ts compares
 * the routes on disk (each app/api/.../route.ts and the methods it exports) with the document.
 */
export const ROUTE_SPECS: readonly Operation[] = [
  health,
  authNonce,
  authSession,
  authSessions,
  apiKeys,
  apiKey,
  invoices,
  invoiceStats,
  invoice,
  invoiceOwner,
  invoicePdf,
  invoiceEInvoice,
  exportPayments,
  exportInvoices,
  exportCreditNotes,
  invoiceSend,
  walletReadiness,
  walletTrustline,
  walletTrustlineSubmit,
  invoiceCancel,
  invoiceCreditNotes,
  creditNotes,
  creditNote,
  creditNotePdf,
  creditNoteEInvoice,
  invoiceDuplicate,
  quotes,
  quote,
  quoteOwner,
  quoteSend,
  quotePdf,
  quoteAccept,
  quoteDecline,
  invoiceEmail,
  invoiceEmails,
  unsubscribe,
  documentsInvoice,
  documentsReceipt,
  paymentRefund,
  manualPayment,
  manualPaymentVoid,
  refundSubmit,
  clients,
  clientFavorite,
  clientStatement,
  clientStatementSend,
  clientPortalSessions,
  client,
  portalLink,
  portalSignIn,
  portalWalletSession,
  portal,
  portalStatement,
  portalEInvoice,
  portalCreditNotePdf,
  portalSignOut,
  profile,
  profileLogo,
  recurring,
  recurringOne,
  recurringPause,
  recurringResume,
  links,
  link,
  linkStatus,
  linkCheckout,
  linkPayments,
  linkDeactivate,
  linkReactivate,
  payIntent,
  payOptions,
  submit,
  confirm,
  paymentStatus,
  paymentEvents,
  verifyTx,
  price,
  prices,
  webhooks,
  webhook,
  rotateSecret,
  webhookTest,
  deliveries,
  deliveryRetry,
  events,
  team,
  teamMember,
  teamBooks,
  teamBooksSession,
  cronExpire,
  cronWebhooks,
  cronEmails,
  cronRecurring,
  cronWatcher,
].flatMap((spec) => Object.values(spec) as Operation[]);
