import { defineConfig } from "drizzle-kit";

// Migrations are generated with `npm run db:generate` only, never edited by hand,
// and applied by the programmatic migrator (db/migrate.ts) at start-up and in tests.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
});
