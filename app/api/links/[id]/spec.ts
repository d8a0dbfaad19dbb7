import { BusinessRuleError, ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { updateLinkSchema } from "@/lib/schemas/links";
import { idPath } from "@/lib/schemas/wire";
import { linkSerializer } from "@/lib/serializers/links";
import {
  FIXED_AT_CREATION,
  LINK_NOT_ACTIVE,
  SINGLE_USE_EXPIRES,
} from "@/lib/services/links/manage";
import { linkNotFound, notOwner } from "../../common-errors";

export const getLink = operation({
  method: "GET",
  path: "/api/links/{id}",
  operationId: "getLink",
  tag: "Payment links",
  summary: "Public view of a payment link",
  description:
    "404 `Link not found` for unknown, deleted, or expired and unpaid links. A link its owner deactivated answers 200 with `deactivatedAt` set.",
  auth: "public",
  params: idPath,
  responses: [{ status: 200, description: "The link", serializer: linkSerializer }],
  errors: [linkNotFound],
});

export const updateLink = operation({
  method: "PATCH",
  path: "/api/links/{id}",
  operationId: "updateLink",
  tag: "Payment links",
  summary: "Change a link's title, description, reference or expiry",
  description:
    "Owner only, ACTIVE links only (a deactivated one too). The body is the create body with every field optional; only `title`, `description`, `reference` and `expiresAt` may be given (any other field is 400 naming it: amounts, asset and network are fixed at creation). `expiresAt`: in the future, at most 90 days ahead, or null on a reusable link (never expires). Checkouts already made keep their own expiry. Audited (`UPDATED` with the changes); no event. A body that changes nothing writes nothing.",
  auth: "authed",
  scope: ["links:write"],
  params: idPath,
  body: {
    schema: updateLinkSchema,
    examples: {
      formB: {
        summary: "New title, never expires (reusable link)",
        value: { title: "Tip jar 2027", expiresAt: null },
      },
    },
  },
  responses: [{ status: 200, description: "The link as it now is", serializer: linkSerializer }],
  errors: [
    new ValidationError(INVALID_REQUEST, { amount: FIXED_AT_CREATION }),
    new ValidationError(INVALID_REQUEST, { expiresAt: SINGLE_USE_EXPIRES }),
    new ValidationError(INVALID_REQUEST, { expiresAt: "must be in the future" }),
    new BusinessRuleError(LINK_NOT_ACTIVE("EXPIRED")),
    notOwner,
    linkNotFound,
  ],
});
