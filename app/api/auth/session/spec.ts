import { UnauthorizedError, ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { sessionRequestSchema } from "@/lib/schemas/auth";
import { EXAMPLE_WALLET } from "@/lib/schemas/wire";
import { sessionSerializer, whoAmISerializer } from "@/lib/serializers/system";
import { INVALID_SIGNATURE } from "@/lib/services/auth/messages";
import { signOutOperation } from "../sign-out";

export const createSession = operation({
  method: "POST",
  path: "/api/auth/session",
  operationId: "createSession",
  tag: "Auth",
  summary: "Exchange a signed nonce for a session token",
  description:
    "The signature is ed25519 over the message bytes or over its SEP-53 form (sha256 of `Stellar Signed Message:\\n` + message, what Freighter's `signMessage` produces), hex or base64. The token is an HS256 JWT valid for one hour, until signed out (`DELETE /api/auth/session`, `DELETE /api/auth/sessions`).",
  auth: "public",
  body: {
    schema: sessionRequestSchema,
    examples: {
      request: {
        summary: "Request",
        value: {
          walletAddress: EXAMPLE_WALLET,
          nonce: "9f86d081884c7d659a2feaa0c55ad015",
          signature: "3q2+7w...base64",
        },
      },
    },
  },
  responses: [{ status: 200, description: "A session token", serializer: sessionSerializer }],
  errors: [
    new ValidationError(INVALID_REQUEST, { nonce: "must be 32 lowercase hex characters" }),
    new UnauthorizedError(INVALID_SIGNATURE),
  ],
});

export const deleteSession = signOutOperation({
  path: "/api/auth/session",
  operationId: "deleteSession",
  team: "read",
  summary: "Sign out this token",
  description:
    "Revokes the Bearer token sent, on every instance within 5 seconds (at once on the one that answers): afterwards it is 401 `Invalid or expired token`. Header credentials (Form A) have no session to revoke: 204 all the same.",
});

export const getSession = operation({
  method: "GET",
  path: "/api/auth/session",
  operationId: "getSession",
  tag: "Auth",
  summary: "Who am I",
  description:
    "The wallet of the credentials sent: a protected endpoint to try a token on. With a team member's books token, the wallet whose books it opens.",
  auth: "authed",
  team: "read",
  responses: [
    { status: 200, description: "The authenticated wallet", serializer: whoAmISerializer },
  ],
});
