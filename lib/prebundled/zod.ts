// Server only: next.config.ts points `zod` here in production builds (./specifiers.ts).
export * from "@stellar-invoicing/prebundled/zod";
export { default } from "@stellar-invoicing/prebundled/zod";
