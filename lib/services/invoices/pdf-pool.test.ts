import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { PdfCache, pdfVersion } from "./invoice-pdf";
import { type PdfJob, pdfRenderer, ThreadPool } from "./pdf-pool";
import type { InvoicePdfData } from "./pdf-render";

/**
 * Issue 27, item 7: PDFs are drawn by a bounded pool of worker threads, off the main thread,
 * and kept until what they show changes.
 */

/** A worker that blocks its own thread for `ms` (as pdfkit does), then answers. */
const BUSY_WORKER = `
const { parentPort } = require("node:worker_threads");
parentPort.on("message", ({ ms, fail }) => {
  const start = Date.now();
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  if (fail === "exit") process.exit(3);
  if (fail) parentPort.postMessage({ ok: false, error: fail });
  else parentPort.postMessage({ ok: true, value: { start, end: Date.now() } });
});`;

type In = { ms: number; fail?: string };
type Out = { start: number; end: number };
const pools: ThreadPool<In, Out>[] = [];
const busyPool = (size: number, idleMs = 60_000) => {
  const pool = new ThreadPool<In, Out>({
    size,
    idleMs,
    spawn: () => new Worker(BUSY_WORKER, { eval: true }),
  });
  pools.push(pool);
  return pool;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

describe("ThreadPool", () => {
  it("runs at most `size` tasks at once, in worker threads, while the main thread stays free", async () => {
    const pool = busyPool(2);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const results = await Promise.all(Array.from({ length: 6 }, () => pool.run({ ms: 150 })));
    clearInterval(timer);
    // Every moment, at most two tasks were running.
    for (const r of results) {
      const runningThen = results.filter((o) => o.start <= r.start && r.start < o.end);
      expect(runningThen.length).toBeLessThanOrEqual(2);
    }
    expect(pool.stats()).toMatchObject({ size: 2, workers: 2, running: 0, queued: 0, peak: 2 });
    // Six tasks of 150 ms, two at a time: at least 450 ms, during which the main thread's
    // timer kept firing (a blocked main thread would have fired it once or twice).
    expect(
      Math.max(...results.map((r) => r.end)) - Math.min(...results.map((r) => r.start)),
    ).toBeGreaterThanOrEqual(440);
    expect(ticks).toBeGreaterThan(10);
  });

  it("a failing task fails alone; a worker that dies is replaced", async () => {
    const pool = busyPool(1);
    await expect(pool.run({ ms: 1, fail: "boom" })).rejects.toThrow("boom");
    await expect(pool.run({ ms: 1, fail: "exit" })).rejects.toThrow(/exited/);
    await expect(pool.run({ ms: 1 })).resolves.toMatchObject({ start: expect.any(Number) });
  });

  it("idle workers end", async () => {
    const pool = busyPool(2, 50);
    await Promise.all([pool.run({ ms: 1 }), pool.run({ ms: 1 })]);
    expect(pool.stats().workers).toBe(2);
    await new Promise((r) => setTimeout(r, 300));
    expect(pool.stats().workers).toBe(0);
  });
});

const sample: InvoicePdfData = {
  invoiceNumber: "INV-0007",
  status: "PENDING",
  title: "Logo design",
  description: null,
  notes: null,
  paymentTerms: null,
  buyerReference: null,
  supplyDate: null,
  periodStart: null,
  periodEnd: null,
  taxCurrency: null,
  freelancerWallet: "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H",
  freelancerName: "Grace",
  freelancerEmail: null,
  freelancerCompany: null,
  clientName: "Ada",
  clientEmail: "ada@example.com",
  clientCompany: null,
  clientAddress: null,
  clientTaxId: null,
  clientTaxScheme: null,
  clientPostalAddress: null,
  clientIsBusiness: null,
  subtotal: "10.0000000",
  taxRate: "0.00",
  taxAmount: "0.0000000",
  discount: "0.0000000",
  total: "10.0000000",
  currency: "XLM",
  networkPassphrase: "Test SDF Network ; September 2015",
  dueDate: new Date("2026-12-31T00:00:00.000Z"),
  createdAt: new Date("2026-01-05T10:00:00.000Z"),
  sentAt: null,
  paidAt: null,
  transactionHash: null,
  lineItems: [{ description: "Logo", quantity: "1", rate: "10", amount: "10.0000000" }],
};

describe("the PDF renderer", () => {
  it("draws in a worker thread (the real worker script)", async () => {
    const renderer = pdfRenderer();
    expect(renderer.pool).not.toBeNull();
    const job: PdfJob = {
      invoice: sample,
      options: { paymentLink: "http://localhost/pay/x", compress: false, profile: null },
    };
    const pdf = await renderer.render(job);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.toString("latin1")).toContain("INV-0007");
    expect(renderer.pool?.stats()).toMatchObject({ workers: 1, running: 0 });
    await renderer.pool?.close();
  }, 60_000);
});

describe("PdfCache", () => {
  const job = (invoice: Partial<InvoicePdfData>, logo?: Buffer): PdfJob => ({
    invoice: { ...sample, ...invoice },
    options: {
      paymentLink: "http://localhost/pay/x",
      profile: { logo: logo ? { data: logo } : null, lines: ["1 Main St", null] },
    },
  });

  it("the version changes with anything drawn, the logo's bytes included", () => {
    const base = pdfVersion(job({}));
    expect(pdfVersion(job({}))).toBe(base);
    expect(pdfVersion(job({ status: "PAID" }))).not.toBe(base);
    expect(pdfVersion(job({ lineItems: [] }))).not.toBe(base);
    expect(pdfVersion(job({}, Buffer.from("a")))).not.toBe(pdfVersion(job({}, Buffer.from("b"))));
  });

  it("the version covers the embedded e-invoice (a profile phone or tax id it shows)", () => {
    const withXml = (xml: string | null): PdfJob => {
      const j = job({});
      return { ...j, options: { ...j.options, eInvoiceXml: xml } };
    };
    expect(pdfVersion(withXml(null))).toBe(pdfVersion(job({})));
    expect(pdfVersion(withXml("<a/>"))).not.toBe(pdfVersion(withXml(null)));
    expect(pdfVersion(withXml("<a/>"))).not.toBe(pdfVersion(withXml("<b/>")));
  });

  it("answers a PDF only for its version, and stays within its bytes", () => {
    const cache = new PdfCache(100);
    cache.set("a", "v1", Buffer.alloc(40));
    expect(cache.get("a", "v1")?.length).toBe(40);
    expect(cache.get("a", "v2")).toBeUndefined();
    cache.set("b", "v1", Buffer.alloc(40));
    cache.get("a", "v1"); // a is now the most recently used
    cache.set("c", "v1", Buffer.alloc(40));
    expect(cache.get("b", "v1")).toBeUndefined();
    expect(cache.get("a", "v1")).toBeDefined();
    expect(cache.size()).toEqual({ entries: 2, bytes: 80 });
    cache.set("a", "v2", Buffer.alloc(10)); // a new version replaces the old
    expect(cache.size()).toEqual({ entries: 2, bytes: 50 });
    cache.set("big", "v1", Buffer.alloc(101));
    expect(cache.get("big", "v1")).toBeUndefined();
  });
});
