// Types of the generated package (scripts/prebundle.ts): the packages' own, which it bundles.
declare module "@stellar-invoicing/prebundled/zod" {
  export * from "zod";
  export { default } from "zod";
}
declare module "@stellar-invoicing/prebundled/zod-openapi" {
  export * from "zod-openapi";
}
declare module "@stellar-invoicing/prebundled/drizzle-orm" {
  export * from "drizzle-orm";
}
declare module "@stellar-invoicing/prebundled/drizzle-orm/pg-core" {
  export * from "drizzle-orm/pg-core";
}
declare module "@stellar-invoicing/prebundled/drizzle-orm/postgres-js" {
  export * from "drizzle-orm/postgres-js";
}
declare module "@stellar-invoicing/prebundled/drizzle-orm/postgres-js/migrator" {
  export * from "drizzle-orm/postgres-js/migrator";
}
declare module "@stellar-invoicing/prebundled/drizzle-orm/pglite" {
  export * from "drizzle-orm/pglite";
}
declare module "@stellar-invoicing/prebundled/drizzle-orm/pglite/migrator" {
  export * from "drizzle-orm/pglite/migrator";
}
