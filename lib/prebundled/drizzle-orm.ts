// Server only: next.config.ts points `drizzle-orm` here in production builds (./specifiers.ts).
export * from "@stellar-invoicing/prebundled/drizzle-orm";
