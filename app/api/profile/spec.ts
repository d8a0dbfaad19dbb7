import { ValidationError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { profileInputSchema } from "@/lib/schemas/profile";
import { profileSerializer } from "@/lib/serializers/profile";
import {
  LOGO_SVG_TOO_LARGE,
  LOGO_TOO_LARGE,
  LOGO_TYPE_MISMATCH,
  LOGO_UNSAFE_SVG,
} from "@/lib/services/profile/logo";
import { costlyLimit } from "../common-errors";

export const getProfile = operation({
  method: "GET",
  path: "/api/profile",
  operationId: "getProfile",
  tag: "Profile",
  summary: "The caller's business profile",
  description:
    "Name, company, email, address, tax id, logo URL, reporting currency and the defaults new invoices take. A wallet that never saved one gets every field null (USD).",
  auth: "authed",
  // A key that may replace the profile may read it (PUT replaces the whole profile).
  scope: ["invoices:read", "clients:read", "profile:write"],
  responses: [{ status: 200, description: "The profile", serializer: profileSerializer }],
});

export const putProfile = operation({
  method: "PUT",
  path: "/api/profile",
  operationId: "putProfile",
  tag: "Profile",
  summary: "Replace the business profile",
  limit: costlyLimit,
  description:
    "Replaces the whole profile: a field left out is cleared (null; reportingCurrency back to USD), except `logo`, which is kept when left out and removed with null. The logo is a base64 data URL (PNG, JPEG or SVG, at most 200 KB of image and an SVG 100 KB, so this body may be up to 300 KB). A bad field answers 400 with details and writes nothing. New invoices take `freelancerName`, `freelancerCompany`, `freelancerEmail`, the due date (paymentTermsDays) and paymentTolerance from it when their body leaves them out.",
  auth: "authed",
  // Its own scope: the profile is the Reply-To address of every invoice email and the
  // tolerance new invoices take, more than an invoice writer needs (docs/decisions.md).
  scope: ["profile:write"],
  body: {
    schema: profileInputSchema,
    maxBytes: 300_000,
    examples: {
      request: {
        summary: "Request",
        value: {
          displayName: "Ada Lovelace",
          company: "Analytical Engines Ltd",
          email: "ada@example.com",
          address: "12 St James's Square, London",
          taxId: "GB123456789",
          reportingCurrency: "EUR",
          paymentTermsDays: 14,
          defaultReminders: [-3, 0, 7],
          defaultPaymentTolerance: "0.50",
          emailFooter: "Thank you for your business.",
        },
      },
    },
  },
  responses: [{ status: 200, description: "The saved profile", serializer: profileSerializer }],
  errors: [
    new ValidationError("Invalid request", { logo: LOGO_TOO_LARGE }),
    new ValidationError("Invalid request", { logo: LOGO_SVG_TOO_LARGE }),
    new ValidationError("Invalid request", { logo: LOGO_TYPE_MISMATCH }),
    new ValidationError("Invalid request", { logo: LOGO_UNSAFE_SVG }),
  ],
});
