import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FRONT_ROUTES } from "./front";

const API = path.resolve(import.meta.dirname, "..", "..", "app", "api");

/** Every route folder under app/api, as a path a client would ask for. */
function routePaths(dir = API, prefix = "/api"): { folder: string; path: string }[] {
  const found: { folder: string; path: string }[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const segment = entry.name.startsWith("[...")
      ? "a/b"
      : entry.name.startsWith("[")
        ? "inv_sample0000000000000000"
        : entry.name;
    const sub = path.join(dir, entry.name);
    if (fs.existsSync(path.join(sub, "route.ts"))) {
      found.push({ folder: path.relative(API, sub), path: `${prefix}/${segment}` });
    }
    found.push(...routePaths(sub, `${prefix}/${segment}`));
  }
  return found;
}

const OWN: Record<keyof typeof FRONT_ROUTES, string> = {
  paymentStatus: "payments/[invoiceId]/status",
  paymentEvents: "payments/[invoiceId]/events",
  publicInvoice: "invoices/[id]",
  invoiceList: "invoices",
};

describe("FRONT_ROUTES", () => {
  const routes = routePaths();

  it("finds the API's routes", () => {
    expect(routes.length).toBeGreaterThan(40);
  });

  for (const [name, { pattern }] of Object.entries(FRONT_ROUTES)) {
    it(`${name} matches its own route and no other, under /api and /api/v1`, () => {
      const own = OWN[name as keyof typeof FRONT_ROUTES];
      for (const r of routes) {
        for (const p of [r.path, r.path.replace(/^\/api/, "/api/v1")]) {
          expect(pattern.test(p), `${name} on ${p} (${r.folder})`).toBe(r.folder === own);
        }
      }
    });
  }
});
