import { NotFoundError, UnauthorizedError, ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { portalWalletRequestSchema } from "@/lib/schemas/portal";
import { EXAMPLE_WALLET } from "@/lib/schemas/wire";
import { portalWalletSerializer } from "@/lib/serializers/portal";
import { INVALID_SIGNATURE } from "@/lib/services/auth/messages";
import { INVALID_PICK, NO_PAID_INVOICE } from "@/lib/services/portal/wallet";
import { portalLinkLimited, portalSignInLimit } from "../portal-errors";

export const portalWalletSession = operation({
  method: "POST",
  path: "/api/portal/wallet-session",
  operationId: "portalWalletSession",
  tag: "Client portal",
  summary: "Sign in to the portal with the wallet that paid",
  description:
    "The wallet signs a sign-in nonce (`POST /api/auth/nonce`, the same message and signature as `POST /api/auth/session`). It opens the portal of the freelancer whose invoice it paid, for that invoice's client email (`signed_in`, with `Set-Cookie: portal_session`). When it paid several freelancers or client emails, the answer is `choose` with the list and a `pickToken` valid 5 minutes; a second call with the token and one choice signs in. 404 when the wallet paid no invoice here.",
  auth: "public",
  limit: portalSignInLimit,
  body: {
    schema: portalWalletRequestSchema,
    examples: {
      signed: {
        summary: "Signed nonce",
        value: {
          walletAddress: EXAMPLE_WALLET,
          nonce: "9f86d081884c7d659a2feaa0c55ad015",
          signature: "3q2+7w...base64",
        },
      },
    },
  },
  responses: [
    {
      status: 200,
      description: "Signed in (with `Set-Cookie: portal_session`), or the choices",
      serializer: portalWalletSerializer,
    },
  ],
  errors: [
    new ValidationError(INVALID_REQUEST),
    new UnauthorizedError(INVALID_SIGNATURE),
    new UnauthorizedError(INVALID_PICK),
    new NotFoundError(NO_PAID_INVOICE),
    portalLinkLimited,
  ],
});
