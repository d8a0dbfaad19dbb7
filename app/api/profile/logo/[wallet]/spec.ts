import { NotFoundError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { wallet } from "@/lib/schemas/wire";
import { LOGO_NOT_FOUND } from "@/lib/services/profile/profile";
import { z } from "@/lib/zod";

export const getProfileLogo = operation({
  method: "GET",
  path: "/api/profile/logo/{wallet}",
  operationId: "getProfileLogo",
  tag: "Profile",
  summary: "A freelancer's logo (public)",
  description:
    "The logo the checkout, the PDF and emails show, by the freelancer's wallet (public on every invoice already). Served with its own type (image/png, image/jpeg or image/svg+xml), `X-Content-Type-Options: nosniff`, `Content-Security-Policy: sandbox; default-src 'none'; style-src 'unsafe-inline'` and `Content-Disposition: inline`, so an SVG opened on its own runs nothing. The `v` query parameter the profile's logoUrl carries changes with each new logo (cached for a day).",
  auth: "public",
  params: z.object({ wallet }),
  responses: [
    {
      status: 200,
      description: "The image",
      raw: {
        contentType: "image/png",
        headers: {
          "Content-Security-Policy": {
            description: "`sandbox; default-src 'none'; style-src 'unsafe-inline'`",
          },
          "X-Content-Type-Options": { description: "`nosniff`" },
        },
      },
    },
  ],
  errors: [new NotFoundError(LOGO_NOT_FOUND)],
});
