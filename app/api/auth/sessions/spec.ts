import { operation } from "@/lib/http/route";

export const deleteSessions = operation({
  method: "DELETE",
  path: "/api/auth/sessions",
  operationId: "deleteSessions",
  tag: "Auth",
  summary: "Sign out everywhere",
  description:
    "Revokes every session token of the wallet issued until now, this one included, on every instance within 5 seconds (at once on the one that answers). A later sign-in works as usual.",
  auth: "authed",
  responses: [{ status: 204, description: "Every session signed out", empty: true }],
});
