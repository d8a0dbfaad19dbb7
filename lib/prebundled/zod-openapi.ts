// Server only: next.config.ts points `zod-openapi` here in production builds (./specifiers.ts).
export * from "@stellar-invoicing/prebundled/zod-openapi";
