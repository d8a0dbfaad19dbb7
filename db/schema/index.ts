export * from "./auth";
export * from "./clients";
export * from "./events";
export * from "./idempotency";
export * from "./invoices";
export * from "./payments";
export * from "./rate-limits";
export * from "./watcher";
