/**
 * The packages the production server loads prebundled (scripts/prebundle.ts, docs/decisions.md,
 * Cold start, "Prebundled packages"): every specifier it imports them by. next.config.ts
 * points each at its file in this folder, which imports `@stellar-invoicing/prebundled/<it>`.
 * Our code imports zod as `@/lib/zod`, the others by their own names.
 */
/** The generated package (scripts/prebundle.ts writes it into node_modules). */
export const PREBUNDLED_PACKAGE = "@stellar-invoicing/prebundled";

export const PREBUNDLED = [
  "zod",
  "zod-openapi",
  "drizzle-orm",
  "drizzle-orm/pg-core",
  "drizzle-orm/postgres-js",
  "drizzle-orm/postgres-js/migrator",
  "drizzle-orm/pglite",
  "drizzle-orm/pglite/migrator",
] as const;

/** The packages those specifiers belong to: `drizzle-orm/pg-core` → `drizzle-orm`. */
export const PREBUNDLED_PACKAGES = [...new Set(PREBUNDLED.map((spec) => spec.split("/")[0]))];

/** `drizzle-orm/pg-core` → `drizzle-orm-pg-core`: its file here and in the package's dist. */
export const prebundledName = (spec: string) => spec.replaceAll("/", "-");
