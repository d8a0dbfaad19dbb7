import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { profiles } from "@/db/schema";

export type ProfileRow = typeof profiles.$inferSelect;

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
  profile: Pick<ProfileRow, "wallet" | "logo" | "logoType" | "logoUpdatedAt"> | null,
): string | null {
  if (!profile?.logoType || !profile.logoUpdatedAt) return null;
  return `/api/profile/logo/${profile.wallet}?v=${profile.logoUpdatedAt.getTime().toString(36)}`;
}

/** The logo's absolute URL under the app's public URL (emails), or null without a logo. */
export function profileLogoUrl(appUrl: string, profile: ProfileRow | null): string | null {
  const path = profileLogoPath(profile);
  return path ? `${appUrl.replace(/\/+$/, "")}${path}` : null;
}
