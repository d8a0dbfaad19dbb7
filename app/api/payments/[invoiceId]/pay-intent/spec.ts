import { NETWORK_PASSPHRASES } from "@/lib/config";
import {
  BusinessRuleError,
  ConflictError,
  LedgerError,
  RateLimitedError,
  UnavailableError,
  ValidationError,
} from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { PRICE_UNAVAILABLE } from "@/lib/prices/cache";
import {
  LINK_HOLDS_MESSAGE,
  LINK_HOLDS_PER_LINK_MESSAGE,
  payIntentPolicy,
} from "@/lib/ratelimit/policies";
import { INVALID_NETWORK } from "@/lib/schemas/common";
import { payIntentSchema } from "@/lib/schemas/payments";
import { invoiceIdPath } from "@/lib/schemas/wire";
import { paymentIntentSerializer } from "@/lib/serializers/payments";
import { INVALID_ADDRESS } from "@/lib/services/auth/nonce";
import { LINK_BUSY, LINK_FULL } from "@/lib/services/links/checkout";
import { LINK_INACTIVE, LINK_TAKES_CHECKOUTS } from "@/lib/services/links/links";
import {
  FEE_ACCOUNT_NOT_FOUND,
  INVALID_CONTRACT_SENDER,
  NETWORK_DOES_NOT_MATCH,
  OWN_INVOICE,
  SENDER_NOT_FOUND,
} from "@/lib/services/payments/pay-intent";
import { QUOTE_TOO_LARGE } from "@/lib/services/payments/quotes";
import { RECIPIENT_CANNOT_RECEIVE } from "@/lib/services/payments/recipient-readiness";
import { ledgerError } from "@/lib/stellar/errors";
import { NO_PAYMENT_PATH } from "@/lib/stellar/paths";
import { ARCHIVED_STATE, NO_RPC } from "@/lib/stellar/soroban";
import { invoiceNotFound, linkNotFound } from "../../../common-errors";

const PAYER = "GCFXHS4GXL6BVUCXBWXGTITROWLVYXQKQLF4YH5O5JT3YZXCYPAFBJZB";
const TESTNET = NETWORK_PASSPHRASES.testnet;

export const createPaymentIntent = operation({
  method: "POST",
  path: "/api/payments/{invoiceId}/pay-intent",
  operationId: "createPaymentIntent",
  tag: "Payments",
  summary: "Build an unsigned payment",
  description:
    "Always returns the SEP-7 URI; with a sender (`senderPublicKey`, or its Form B alias `payerAddress`) also the unsigned transaction (one payment to the freelancer for the exact total, text memo = invoice number, 300-second timeout). Checks on the ledger that both accounts exist and trust the asset. With `sendAsset` other than the invoice's asset, the transaction is one `path_payment_strict_receive` instead: the freelancer receives exactly `amount`, the payer sends at most `pathPayment.sendMax` of `sendAsset` (Horizon's cheapest strict-receive path plus PATH_SLIPPAGE_BPS); 400 `No payment path found` when Horizon has none. The SEP-7 URI stays a plain payment of `amount`. `muxedAddress` is the invoice's own `M...` address (a payment to it pays this invoice with or without a memo); with MUXED_DESTINATIONS=on the transaction and the URI pay it (`destination`), the memo kept. Moves PENDING or FAILED to PROCESSING. A smart wallet (a contract account, `C...`) as the sender needs `feeAccount`, the G account that sends the transaction and pays its fee: the transaction is then the invoice asset contract's `transfer(from = C, to = destination, amount)` to the muxed address, simulated through the network's Stellar RPC and assembled, and `contractPayment` lists the authorization entries the C signs (docs/decisions.md, Smart-wallet payers). On a checkout of a payment link with `maxPayments`, a sender commits: the checkout holds one of the link's places until it expires (409 when every place is paid or held; at most 5 such holds per 30 minutes per IP, 2 on one link: 429).",
  auth: "public",
  ledger: true,
  limit: {
    policy: payIntentPolicy,
    per: "caller",
    note: "10 requests per 5 minutes per IP (and per wallet with a token)",
  },
  params: invoiceIdPath,
  body: {
    schema: payIntentSchema,
    examples: {
      formA: {
        summary: "Form A: desktop flow",
        value: { senderPublicKey: PAYER, networkPassphrase: TESTNET },
      },
      formB: {
        summary: "Form B: payerAddress",
        value: { payerAddress: PAYER, networkPassphrase: TESTNET },
      },
      sep7: { summary: "SEP-7 only (mobile wallet)", value: { networkPassphrase: TESTNET } },
      contract: {
        summary: "A smart wallet (contract account) with its fee payer",
        value: {
          senderPublicKey: "CA6ZW2UWYV4Z4XARCQ66S2DCWEXPDZTMFNOK63FH2SAWXAIS56EGHGH5",
          feeAccount: PAYER,
          networkPassphrase: TESTNET,
        },
      },
      path: {
        summary: "Pay with XLM (a path payment to the invoice's asset)",
        value: { senderPublicKey: PAYER, networkPassphrase: TESTNET, sendAsset: "XLM" },
      },
    },
  },
  responses: [
    { status: 200, description: "The payment intent", serializer: paymentIntentSerializer },
  ],
  errors: [
    new BusinessRuleError(OWN_INVOICE),
    new BusinessRuleError("Invoice cannot be paid. Current status: PAID"),
    new BusinessRuleError(NETWORK_DOES_NOT_MATCH),
    new BusinessRuleError(NO_PAYMENT_PATH),
    new ValidationError(INVALID_NETWORK),
    new ValidationError(INVALID_ADDRESS),
    new ValidationError(SENDER_NOT_FOUND),
    new ValidationError(FEE_ACCOUNT_NOT_FOUND),
    new ValidationError(INVALID_CONTRACT_SENDER),
    new BusinessRuleError("The payment could not be simulated: HostError: Error(Contract, #8)"),
    new UnavailableError(NO_RPC),
    new BusinessRuleError(ARCHIVED_STATE),
    ledgerError("op_no_destination"),
    new LedgerError("op_no_trust", RECIPIENT_CANNOT_RECEIVE),
    ledgerError("op_line_full"),
    ledgerError("op_src_no_trust"),
    ledgerError("op_underfunded"),
    ledgerError("op_underfunded", "USDC"),
    new UnavailableError(PRICE_UNAVAILABLE),
    new ValidationError(QUOTE_TOO_LARGE),
    invoiceNotFound,
    linkNotFound,
    new ValidationError(LINK_TAKES_CHECKOUTS),
    new ConflictError(LINK_INACTIVE),
    new ConflictError(LINK_BUSY),
    new ConflictError(LINK_FULL),
    new RateLimitedError(LINK_HOLDS_MESSAGE, 1800),
    new RateLimitedError(LINK_HOLDS_PER_LINK_MESSAGE, 1800),
  ],
});
