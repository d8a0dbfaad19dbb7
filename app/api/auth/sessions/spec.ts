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

export const deleteSessions = signOutOperation({
  path: "/api/auth/sessions",
  operationId: "deleteSessions",
  summary: "Sign out everywhere",
  description:
    "Revokes every session token of the wallet issued until now, this one included, on every instance within 5 seconds (at once on the one that answers). A later sign-in works as usual.",
});
