import { ConflictError, ValidationError } from "@/lib/domain/errors";
import { CHECKOUT_AMOUNT_REQUIRED } from "@/lib/domain/link-payments";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { linkCheckoutPolicy } from "@/lib/ratelimit/policies";
import { linkCheckoutSchema } from "@/lib/schemas/links";
import { idPath } from "@/lib/schemas/wire";
import { linkSerializer } from "@/lib/serializers/links";
import { LINK_BUSY, LINK_FULL, LINK_PAID_DIRECTLY } from "@/lib/services/links/checkout";
import { LINK_INACTIVE } from "@/lib/services/links/links";
import { linkNotFound } from "../../../common-errors";

export const startLinkCheckout = operation({
  method: "POST",
  path: "/api/links/{id}/checkout",
  operationId: "startLinkCheckout",
  tag: "Payment links",
  summary: "Start a payer's checkout of a reusable or open-amount link",
  description:
    "Creates the checkout the payer pays: a payment link of its own (`parentLinkId` = this link) with its own memo, the link's amount or the payer's (`amount`, open-amount links only: at least `minAmount`, at most 2 decimals for a fiat-priced link, else 7), expiring after 30 minutes (or with the link). Pay it at its `checkoutUrl` like any link. A checkout holds none of a limited link's places by itself: its payer's pay-intent with a sender takes one (until the checkout expires), a payment keeps it. 409 when every place is paid or held. The checkout's memo is the link's number and its place in the link's series (`INV-0042-1`), never one of the wallet's invoice numbers. Single-use fixed-amount links are paid directly (400). A link its owner deactivated makes no checkout (409); those made before stay payable.",
  auth: "public",
  limit: {
    policy: linkCheckoutPolicy,
    per: "ip",
    note: "10 checkouts per 5 minutes per IP",
  },
  params: idPath,
  body: {
    schema: linkCheckoutSchema,
    examples: {
      open: { summary: "Open amount", value: { amount: "42.50" } },
      fixed: { summary: "Fixed amount (reusable link)", value: {} },
    },
  },
  responses: [{ status: 201, description: "The checkout to pay", serializer: linkSerializer }],
  errors: [
    new ValidationError(INVALID_REQUEST, { amount: CHECKOUT_AMOUNT_REQUIRED }),
    new ValidationError(LINK_PAID_DIRECTLY),
    new ConflictError(LINK_FULL),
    new ConflictError(LINK_INACTIVE),
    new ConflictError(LINK_BUSY),
    linkNotFound,
  ],
});
