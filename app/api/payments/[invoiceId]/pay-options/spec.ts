import {
  BusinessRuleError,
  ConflictError,
  LedgerError,
  UnavailableError,
  ValidationError,
} from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { PRICE_UNAVAILABLE } from "@/lib/prices/cache";
import { payIntentPolicy } from "@/lib/ratelimit/policies";
import { payOptionsQuery } from "@/lib/schemas/payments";
import { invoiceIdPath } from "@/lib/schemas/wire";
import { payOptionsSerializer } from "@/lib/serializers/payments";
import { INVALID_ADDRESS } from "@/lib/services/auth/nonce";
import { LINK_INACTIVE } from "@/lib/services/links/links";
import { RECIPIENT_CANNOT_RECEIVE } from "@/lib/services/payments/recipient-readiness";
import { ledgerError } from "@/lib/stellar/errors";
import { invoiceNotFound, linkNotFound } from "../../../common-errors";

export const getPayOptions = operation({
  method: "GET",
  path: "/api/payments/{invoiceId}/pay-options",
  operationId: "getPayOptions",
  tag: "Payments",
  summary: "What a payer's account can pay with",
  description:
    "Every asset the account holds that can pay the amount due, with Horizon's estimated cost (`GET /paths/strict-receive` from the account) and the sendMax a pay-intent with that `sendAsset` would allow (PATH_SLIPPAGE_BPS). The invoice's own asset comes first when the account can pay with it. Every option delivers the invoice's asset, so a recipient that cannot receive it (no account, no authorized trustline, no room) answers pay-intent's 400 instead of options that would all fail; a link payment that would create the recipient's account lists only the plain XLM payment (no path can create an account). Changes nothing.",
  auth: "public",
  ledger: true,
  limit: {
    policy: payIntentPolicy,
    per: "caller",
    note: "Shares pay-intent's limit: 10 requests per 5 minutes per IP (and per wallet with a token)",
  },
  params: invoiceIdPath,
  query: payOptionsQuery,
  responses: [
    { status: 200, description: "The payer's options", serializer: payOptionsSerializer },
  ],
  errors: [
    new BusinessRuleError("Invoice cannot be paid. Current status: PAID"),
    new ValidationError(INVALID_ADDRESS),
    new UnavailableError(PRICE_UNAVAILABLE),
    ledgerError("op_no_destination"),
    new LedgerError("op_no_trust", RECIPIENT_CANNOT_RECEIVE),
    ledgerError("op_line_full"),
    invoiceNotFound,
    linkNotFound,
    new ConflictError(LINK_INACTIVE),
  ],
});
