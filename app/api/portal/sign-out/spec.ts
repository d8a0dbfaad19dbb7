import { operation } from "@/lib/http/route";

export const portalSignOut = operation({
  method: "POST",
  path: "/api/portal/sign-out",
  operationId: "portalSignOut",
  tag: "Client portal",
  summary: "Sign out of the portal",
  description: "Ends the cookie's session and clears the cookie: 204 with or without one.",
  auth: "public",
  responses: [{ status: 204, description: "Signed out", empty: true }],
});
