import { operation } from "@/lib/http/route";

/** The two sign-out operations (docs/decisions.md "Authentication"): 204, no body. */
export const signOutOperation = (o: {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** Signing out the token sent is for anyone holding it (a member's books token too). */
  team?: "read";
}) =>
  operation({
    ...o,
    method: "DELETE",
    tag: "Auth",
    auth: "authed",
    responses: [{ status: 204, description: "Signed out", empty: true }],
  });
