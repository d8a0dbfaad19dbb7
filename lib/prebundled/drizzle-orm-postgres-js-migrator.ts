// Server only: next.config.ts points `drizzle-orm/postgres-js/migrator` here in production builds (./specifiers.ts).
export * from "@stellar-invoicing/prebundled/drizzle-orm/postgres-js/migrator";
