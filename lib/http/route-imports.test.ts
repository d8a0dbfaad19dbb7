import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/**
 * The project files a route loads when its first request arrives: its static import graph
 * (dynamic imports load later, on use), packages left out.
 */
async function staticGraph(entry: string): Promise<{ files: string[]; packages: string[] }> {
  const result = await build({
    entryPoints: [path.join(ROOT, entry)],
    bundle: true,
    write: false,
    platform: "node",
    format: "esm",
    packages: "external",
    metafile: true,
    logLevel: "silent",
    jsx: "automatic",
    alias: { "@": ROOT },
    outdir: path.join(ROOT, ".route-imports"),
  });
  const inputs = result.metafile.inputs;
  const abs = (f: string) => path.resolve(process.cwd(), f);
  const byFile = new Map(Object.entries(inputs).map(([f, v]) => [abs(f), v]));
  const seen = new Set<string>();
  const packages = new Set<string>();
  const stack = [path.join(ROOT, entry)];
  while (stack.length) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imp of byFile.get(file)?.imports ?? []) {
      if (imp.kind === "dynamic-import") continue;
      if (imp.external) packages.add(imp.path);
      else stack.push(abs(imp.path));
    }
  }
  return { files: [...seen].map((f) => path.relative(ROOT, f)), packages: [...packages] };
}

// Cold start (ARCHITECTURE.md, Memory): the status a checkout polls answers from a narrow read;
// its first request must not load the settlement (ledger clients, transaction decoding,
// payment recording) nor, through the 404 messages its spec names, email and credit notes.
describe("GET /api/payments/:id/status loads only what it answers with", () => {
  it("its import graph holds the status read and none of the settlement, email or credit notes", async () => {
    const { files } = await staticGraph("app/api/payments/[invoiceId]/status/route.ts");
    const heavy = files.filter(
      (f) =>
        f === "lib/services/payments/settle.ts" ||
        f === "lib/services/payments/record-payment.ts" ||
        f === "lib/ledger-sources/index.ts" ||
        f.startsWith("lib/services/email/") ||
        f.startsWith("lib/services/credit-notes/") ||
        f.startsWith("lib/webhooks/"),
    );
    expect(heavy).toEqual([]);
    expect(files).toContain("lib/services/payments/status.ts");
  }, 30_000);

  // docs/decisions.md, Cold start: what the first status answer no longer loads (about 300 ms
  // of module loading on a cold start): the tax-id checks (stdnum, country names) through the
  // invoice schemas, muxed addresses (the Stellar base library) through the invoice
  // serializers, the JWT library and the Stellar key checks through the authentication.
  it("its first request loads neither the tax-id checks, the Stellar base library nor the JWT library", async () => {
    const { files, packages } = await staticGraph("app/api/payments/[invoiceId]/status/route.ts");
    expect(
      packages.filter((p) =>
        ["stdnum", "i18n-iso-countries", "@stellar/stellar-base", "jose"].includes(p),
      ),
    ).toEqual([]);
    expect(
      files.filter((f) =>
        [
          "lib/schemas/invoices.ts",
          "lib/schemas/parties.ts",
          "lib/serializers/invoices.ts",
          "lib/domain/tax-id.ts",
          "lib/stellar/keys.ts",
          "lib/stellar/muxed.ts",
          "lib/services/auth/token.ts",
          "lib/services/auth/nonce.ts",
        ].includes(f),
      ),
    ).toEqual([]);
  }, 30_000);

  it("the checkout page /pay/:id loads no PDF, QR code or e-invoice code until a document is asked for", async () => {
    const { files, packages } = await staticGraph("app/pay/[id]/page.tsx");
    expect(files).toContain("lib/services/invoices/public-documents.ts");
    expect(
      files.filter((f) => /^lib\/services\/invoices\/(invoice-pdf|pdf-|einvoice)/.test(f)),
    ).toEqual([]);
    expect(packages.filter((p) => ["pdfkit", "qrcode", "xmlbuilder2"].includes(p))).toEqual([]);
  }, 30_000);
});

describe("server.ts starts without what no request needs yet", () => {
  it("validates the configuration without the Stellar base library", async () => {
    const { packages } = await staticGraph("server.ts");
    expect(packages.filter((p) => p.startsWith("@stellar/"))).toEqual([]);
    expect(packages).toContain("zod");
  }, 30_000);

  // docs/decisions.md, Cold start: the configuration's default explorers live with the
  // networks, so the server checks it without the display helpers, money and tax rules.
  it("checks the configuration without lib/format.ts, the money rules or big.js", async () => {
    const { files, packages } = await staticGraph("server.ts");
    expect(files.filter((f) => f === "lib/format.ts" || f.startsWith("lib/domain/"))).toEqual([]);
    expect(packages).not.toContain("big.js");
  }, 30_000);
});
