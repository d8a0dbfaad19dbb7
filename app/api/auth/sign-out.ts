import { operation } from "@/lib/http/route";

/** The two sign-out operations (docs/decisions.md "Authentication"): 204, no body. */
export const signOutOperation = (o: {
  path: string;
  operationId: string;
  summary: string;
  description: string;
}) =>
  operation({
    ...o,
    method: "DELETE",
    tag: "Auth",
    auth: "authed",
    responses: [{ status: 204, description: "Signed out", empty: true }],
  });
