import { operation } from "@/lib/http/route";
import { portalSignInQuerySchema } from "@/lib/schemas/portal";

export const portalSignIn = operation({
  method: "GET",
  path: "/api/portal/sign-in",
  operationId: "portalSignIn",
  tag: "Client portal",
  summary: "Open an emailed sign-in link",
  description:
    "Exchanges the link's token, once, for a portal session: `Set-Cookie: portal_session` (HttpOnly, SameSite=Lax, Path=/, Max-Age 7 days, Secure when the app is served over https) and a redirect to /portal. A used, expired, altered or unknown token redirects to /portal?link=expired, which offers a new link.",
  auth: "public",
  query: portalSignInQuerySchema,
  responses: [
    {
      status: 303,
      description: "To /portal (signed in) or /portal?link=expired",
      raw: {
        contentType: "text/plain",
        headers: {
          Location: { description: "/portal or /portal?link=expired" },
          "Set-Cookie": { description: "The session cookie, when the token was good" },
        },
      },
    },
  ],
});
