// Server only: next.config.ts points `drizzle-orm/pglite/migrator` here in production builds (./specifiers.ts).
export * from "@stellar-invoicing/prebundled/drizzle-orm/pglite/migrator";
