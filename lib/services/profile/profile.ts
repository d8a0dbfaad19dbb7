import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { profiles } from "@/db/schema";
import { partyLines } from "@/lib/domain/address";
import { NotFoundError } from "@/lib/domain/errors";
import { parseTolerance } from "@/lib/domain/settlement";
import { checkTaxId, normalizeTaxId } from "@/lib/domain/tax-id";
import { type Language, schemeLabels } from "@/lib/i18n";
import { storedAddress } from "@/lib/schemas/parties";
import type { ProfileInput } from "@/lib/schemas/profile";
import type { AuthedContext } from "../context";
import { type Logo, parseLogoDataUrl } from "./logo";

export type ProfileRow = typeof profiles.$inferSelect;

/** What GET and PUT /api/profile answer: the row without the logo's bytes. */
export type ProfileView = Omit<ProfileRow, "logo" | "createdAt" | "updatedAt"> & {
  updatedAt: Date | null;
};

export const LOGO_NOT_FOUND = "Logo not found";

/**
 * The wallet's business profile, or null when it has none (docs/decisions.md, Profile). Used by
 * invoice creation (defaults), the checkout, the PDF and emails.
 */
export async function getProfile(db: DbOrTx, wallet: string): Promise<ProfileRow | null> {
  const [row] = await db.select().from(profiles).where(eq(profiles.wallet, wallet)).limit(1);
  return row ?? null;
}

/**
 * The public path of the profile's logo (`/api/profile/logo/<wallet>?v=<version>`), or null
 * without a logo. The version changes with each new logo, so caches may keep it long.
 */
export function profileLogoPath(
  profile: Pick<ProfileRow, "wallet" | "logoType" | "logoUpdatedAt"> | null,
): string | null {
  if (!profile?.logoType || !profile.logoUpdatedAt) return null;
  return `/api/profile/logo/${profile.wallet}?v=${profile.logoUpdatedAt.getTime().toString(36)}`;
}

/** The logo's absolute URL under the app's public URL (emails), or null without a logo. */
export function profileLogoUrl(
  appUrl: string,
  profile: Pick<ProfileRow, "wallet" | "logoType" | "logoUpdatedAt"> | null,
): string | null {
  const path = profileLogoPath(profile);
  return path ? `${appUrl.replace(/\/+$/, "")}${path}` : null;
}

/**
 * What the invoice PDF takes from the profile (lib/services/invoices/invoice-pdf.ts): the logo
 * when pdfkit can draw it (PNG or JPEG; an SVG logo is left off the PDF) and the address and
 * tax id under FROM. Null without a profile.
 */
export async function pdfProfile(db: DbOrTx, wallet: string, lang: Language = "en") {
  return pdfProfileOf(await getProfile(db, wallet), lang);
}

/** `pdfProfile` of a profile row already read, its labels in `lang`. */
export function pdfProfileOf(profile: ProfileRow | null, lang: Language = "en") {
  if (!profile) return null;
  const raster = profile.logoType === "image/png" || profile.logoType === "image/jpeg";
  return {
    logo: raster && profile.logo ? { data: profile.logo } : null,
    // The structured address when there is one, else the free text; then the tax id.
    lines: partyLines(profile, schemeLabels(lang)),
  };
}

const view = ({ logo: _logo, createdAt: _createdAt, ...rest }: ProfileRow): ProfileView => rest;

/** The caller's profile; a wallet that never saved one gets every field empty (USD). */
export async function getOwnProfile(ctx: AuthedContext): Promise<ProfileView> {
  const row = await getProfile(ctx.db, ctx.wallet);
  if (row) return view(row);
  return {
    wallet: ctx.wallet,
    displayName: null,
    company: null,
    email: null,
    phone: null,
    address: null,
    taxId: null,
    taxScheme: null,
    taxCountry: null,
    postalAddress: null,
    logoType: null,
    logoUpdatedAt: null,
    reportingCurrency: "USD",
    paymentTermsDays: null,
    defaultReminders: null,
    defaultPaymentTolerance: null,
    emailFooter: null,
    defaultLanguage: null,
    updatedAt: null,
  };
}

/**
 * PUT /api/profile: replaces the profile. Every field left out is cleared (null; the reporting
 * currency back to USD), except `logo`: left out, the stored logo stays; null removes it; a
 * data URL replaces it. Everything is checked before the one upsert, so a bad field writes
 * nothing. Not an invoice change: no audit entry, a log line.
 */
export async function putProfile(ctx: AuthedContext, input: ProfileInput): Promise<ProfileView> {
  const logo = typeof input.logo === "string" ? parseLogoDataUrl(input.logo) : input.logo;
  const tolerance =
    input.defaultPaymentTolerance == null
      ? null
      : parseTolerance(input.defaultPaymentTolerance, "defaultPaymentTolerance");
  const postalAddress = storedAddress(input.postalAddress);
  // The registration's country: as given, else the address's (docs/decisions.md, Tax identities).
  const country = input.taxCountry ?? postalAddress?.country ?? null;
  const { taxId, scheme } = normalizeTaxId(input.taxId, input.taxScheme, country);
  const checked = scheme && taxId ? checkTaxId(taxId, scheme, country) : null;
  const taxIdentity = {
    taxId,
    taxScheme: scheme,
    taxCountry: checked?.ok ? (checked.country ?? country) : country,
  };
  const now = ctx.now();
  const fields = {
    displayName: input.displayName ?? null,
    company: input.company ?? null,
    email: input.email ?? null,
    phone: input.phone ?? null,
    address: input.address ?? null,
    ...taxIdentity,
    postalAddress,
    reportingCurrency: input.reportingCurrency ?? "USD",
    paymentTermsDays: input.paymentTermsDays ?? null,
    defaultReminders: input.defaultReminders ?? null,
    defaultPaymentTolerance: tolerance,
    emailFooter: input.emailFooter ?? null,
    defaultLanguage: input.defaultLanguage ?? null,
    updatedAt: now,
    ...(logo === undefined
      ? {}
      : logo === null
        ? { logo: null, logoType: null, logoUpdatedAt: null }
        : { logo: logo.data, logoType: logo.type, logoUpdatedAt: now }),
  };
  const [row] = await ctx.db
    .insert(profiles)
    .values({ wallet: ctx.wallet, ...fields, createdAt: now })
    .onConflictDoUpdate({ target: profiles.wallet, set: fields })
    .returning();
  ctx.logger.info("profile saved", {
    requestId: ctx.requestId,
    wallet: ctx.wallet,
    logo: logo === undefined ? "kept" : logo === null ? "removed" : logo.type,
  });
  return view(row);
}

/** The public logo of a wallet (GET /api/profile/logo/:wallet); 404 without one. */
export async function getPublicLogo(db: DbOrTx, wallet: string): Promise<Logo> {
  const [row] = await db
    .select({ logo: profiles.logo, logoType: profiles.logoType })
    .from(profiles)
    .where(eq(profiles.wallet, wallet))
    .limit(1);
  if (!row?.logo || !row.logoType) throw new NotFoundError(LOGO_NOT_FOUND);
  return { data: row.logo, type: row.logoType };
}
