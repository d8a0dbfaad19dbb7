import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { logger } from "@/lib/logger";
import { type InvoicePdfData, type InvoicePdfOptions, renderInvoicePdf } from "./pdf-render";

/**
 * PDFs are drawn off the request path (docs/decisions.md, Limits): pdfkit is synchronous
 * JavaScript, tens of milliseconds of CPU per invoice, so drawing on the main thread stalls
 * every request, the watcher and the webhooks while it runs. A few worker threads draw them,
 * at most PDF_THREADS at a time; the rest wait in order. Workers start on the first PDF and
 * end after a minute without one, so an instance that renders none holds no extra memory.
 */

/** What a worker is sent, and what it answers. */
export type PdfJob = { invoice: InvoicePdfData; options: InvoicePdfOptions };
type Answer<O> = { ok: true; value: O } | { ok: false; error: string };

type Task<I, O> = { input: I; resolve: (value: O) => void; reject: (err: Error) => void };
type Slot<I, O> = { worker: Worker; task: Task<I, O> | null; idle?: NodeJS.Timeout };

/**
 * At most `size` worker threads, each running one task at a time; tasks beyond that queue in
 * order. A worker that fails (throws, exits) fails its task only and is replaced on demand.
 * `peak` is the most tasks that ever ran at once (lib/services/invoices/pdf-pool.test.ts).
 */
export class ThreadPool<I, O> {
  private readonly slots = new Set<Slot<I, O>>();
  private readonly queue: Task<I, O>[] = [];
  private running = 0;
  private peak = 0;

  constructor(private readonly options: { size: number; idleMs: number; spawn: () => Worker }) {}

  run(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.pump();
    });
  }

  stats() {
    return {
      size: this.options.size,
      workers: this.slots.size,
      running: this.running,
      queued: this.queue.length,
      peak: this.peak,
    };
  }

  /** Ends every worker now (tests); queued tasks stay queued for new ones. */
  async close(): Promise<void> {
    const slots = [...this.slots];
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private pump() {
    while (this.queue.length > 0) {
      let slot = [...this.slots].find((s) => s.task === null);
      if (!slot) {
        if (this.slots.size >= this.options.size) return;
        slot = this.spawn();
      }
      const task = this.queue.shift() as Task<I, O>;
      clearTimeout(slot.idle);
      slot.task = task;
      this.running++;
      this.peak = Math.max(this.peak, this.running);
      slot.worker.postMessage(task.input);
    }
  }

  private spawn(): Slot<I, O> {
    const worker = this.options.spawn();
    // An idle worker never keeps the process alive; a busy one's caller is awaiting it.
    worker.unref();
    const slot: Slot<I, O> = { worker, task: null };
    worker.on("message", (answer: Answer<O>) => {
      const task = slot.task;
      if (!task) return;
      slot.task = null;
      this.running--;
      if (answer.ok) task.resolve(answer.value);
      else task.reject(new Error(answer.error));
      slot.idle = setTimeout(() => {
        if (slot.task === null && this.slots.delete(slot)) void slot.worker.terminate();
      }, this.options.idleMs);
      slot.idle.unref();
      this.pump();
    });
    worker.on("error", (err) => this.lose(slot, err));
    worker.on("exit", (code) => this.lose(slot, new Error(`worker thread exited (${code})`)));
    this.slots.add(slot);
    return slot;
  }

  private lose(slot: Slot<I, O>, err: Error) {
    if (!this.slots.delete(slot)) return;
    clearTimeout(slot.idle);
    if (slot.task) {
      this.running--;
      slot.task.reject(err);
      slot.task = null;
    }
    this.pump();
  }
}

/** Threads drawing PDFs: one per core beyond the first (the main thread's), at most 2. */
export const PDF_THREADS = Math.min(2, Math.max(1, os.availableParallelism() - 1));

/**
 * The worker's script: the bundle `npm run build` writes (dist/pdf-worker.mjs) in production;
 * the TypeScript source through tsx in development and tests. Null on hosts that ship
 * neither (Vercel functions): PDFs are then drawn on the main thread, still PDF_THREADS at a
 * time.
 */
function workerScript(): { file: string; options: WorkerOptions } | null {
  // npm scripts run from the project root, as the PDF fonts assume (pdf-render.ts).
  const root = process.cwd();
  const limits = { resourceLimits: { maxOldGenerationSizeMb: 256 } };
  if (process.env.NODE_ENV === "production") {
    const bundle = path.join(root, "dist", "pdf-worker.mjs");
    return fs.existsSync(bundle) ? { file: bundle, options: limits } : null;
  }
  const source = path.join(root, "lib", "services", "invoices", "pdf-worker.ts");
  const tsx = path.join(root, "node_modules", "tsx", "dist", "esm", "api", "index.mjs");
  if (!fs.existsSync(source) || !fs.existsSync(tsx)) return null;
  // The thread registers tsx's loader itself, then loads the TypeScript worker.
  const boot = `import(${JSON.stringify(pathToFileURL(tsx).href)})
    .then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(source).href)}); })`;
  return { file: boot, options: { ...limits, eval: true } };
}

type PdfRenderer = {
  render: (job: PdfJob) => Promise<Buffer>;
  pool: ThreadPool<PdfJob, Uint8Array> | null;
};

const RENDERER = Symbol.for("stellar-invoicing.pdf-renderer");

/**
 * This process's PDF renderer. One per process, however many bundles load this module
 * (Next.js gives each route group its own copy of lib/, ARCHITECTURE.md, Memory).
 */
export function pdfRenderer(): PdfRenderer {
  const g = globalThis as { [RENDERER]?: PdfRenderer };
  g[RENDERER] ??= createRenderer();
  return g[RENDERER];
}

function createRenderer(): PdfRenderer {
  const script = workerScript();
  if (!script) {
    logger.warn("no PDF worker script: PDFs are drawn on the main thread", {
      threads: PDF_THREADS,
    });
    const gate = new Gate(PDF_THREADS);
    return {
      render: (job) => gate.run(() => renderInvoicePdf(job.invoice, job.options)),
      pool: null,
    };
  }
  const pool = new ThreadPool<PdfJob, Uint8Array>({
    size: PDF_THREADS,
    idleMs: 60_000,
    spawn: () => new Worker(script.file, script.options),
  });
  return {
    render: async (job) => {
      const bytes = await pool.run(job);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    pool,
  };
}

/** At most `size` calls of `run` at once; the rest wait in order. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
