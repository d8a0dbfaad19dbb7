import { randomBytes } from "node:crypto";
import postgres from "postgres";

/** The admin URL of the PostgreSQL server that `npm test` started (scripts/test.sh). */
export function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    throw new Error(
      "TEST_DATABASE_URL is not set: run the tests with `npm test` (scripts/test.sh)",
    );
  }
  return url;
}

/** A fresh, empty database for one test file; dropped by `drop()`. */
export async function createTestDatabase(): Promise<{
  url: string;
  name: string;
  drop: () => Promise<void>;
}> {
  const name = `t_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const a = postgres(adminUrl(), { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
