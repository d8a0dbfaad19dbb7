import { signOutOperation } from "../sign-out";

export const deleteSessions = signOutOperation({
  path: "/api/auth/sessions",
  operationId: "deleteSessions",
  summary: "Sign out everywhere",
  description:
    "Revokes every session token of the wallet issued until now, this one included, on every instance within 5 seconds (at once on the one that answers). A later sign-in works as usual.",
});
