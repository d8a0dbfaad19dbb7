/**
 * zod, as our code imports it (`@/lib/zod`, never `zod`: biome.json). The production server
 * loads the prebundled copy in its place (next.config.ts, lib/prebundled/specifiers.ts);
 * browsers, tests and development load zod itself. Same version, same API.
 */
export * from "zod";
export { default } from "zod";
