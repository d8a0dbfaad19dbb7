import { NETWORK_PASSPHRASES } from "@/lib/config";
import { ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { linkCreatePolicy } from "@/lib/ratelimit/policies";
import { INVALID_NETWORK } from "@/lib/schemas/common";
import { createLinkSchema } from "@/lib/schemas/links";
import { linkListSerializer, linkSerializer } from "@/lib/serializers/links";

export const createLink = operation({
  method: "POST",
  path: "/api/links",
  operationId: "createLink",
  tag: "Payment links",
  summary: "Create a payment link",
  description:
    "An invoice of kind LINK, created PENDING and paid like any invoice. `reusable` (with `maxPayments`, or unlimited) and `openAmount` (the payer chooses, at least `minAmount`) make a link paid through payers' checkouts (`POST /api/links/{id}/checkout`), each a payment of its own. Otherwise single use: Its number (the `memo`) is the wallet's next generated invoice number: links and invoices share the wallet's sequence. `expiresAt` may be at most 90 days ahead; without it a single-use link expires after 24 hours and a reusable link never expires. `activateNewAccounts` (XLM only, amount at least 1): a recipient account that does not exist yet is created by the payment.",
  auth: "authed",
  scope: ["links:write"],
  limit: { policy: linkCreatePolicy, per: "caller", note: "60 links per hour per wallet" },
  body: {
    schema: createLinkSchema,
    examples: {
      formB: {
        summary: "Form B",
        value: {
          amount: "25.50",
          asset: "USDC",
          networkPassphrase: NETWORK_PASSPHRASES.testnet,
          title: "Coffee beans",
          reference: "order-42",
        },
      },
      formA: {
        summary: "Form A",
        value: { amount: 25.5, asset: "USDC", network: "testnet", title: "Coffee beans" },
      },
      reusable: {
        summary: "Reusable, the payer chooses the amount (at least 5)",
        value: {
          openAmount: true,
          minAmount: "5",
          reusable: true,
          asset: "USDC",
          network: "testnet",
          title: "Tip jar",
        },
      },
    },
  },
  responses: [{ status: 201, description: "The created link", serializer: linkSerializer }],
  errors: [
    new ValidationError(INVALID_REQUEST, { expiresAt: "must be in the future" }),
    new ValidationError(INVALID_NETWORK),
  ],
});

export const listLinks = operation({
  method: "GET",
  path: "/api/links",
  operationId: "listLinks",
  tag: "Payment links",
  summary: "List the caller's payment links",
  description: "Newest first.",
  auth: "authed",
  scope: ["links:write", "invoices:read"],
  responses: [{ status: 200, description: "The caller's links", serializer: linkListSerializer }],
});
