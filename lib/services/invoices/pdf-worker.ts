import { parentPort } from "node:worker_threads";
import type { PdfJob } from "./pdf-pool";
import { renderInvoicePdf } from "./pdf-render";

/**
 * A PDF worker thread (lib/services/invoices/pdf-pool.ts): draws one invoice per message and
 * answers its bytes. Bundled to dist/pdf-worker.mjs by `npm run build` (build:server).
 */
parentPort?.on("message", async (job: PdfJob) => {
  try {
    const logo = job.options.profile?.logo;
    const pdf = await renderInvoicePdf(job.invoice, {
      ...job.options,
      // Structured cloning hands a Buffer over as a plain Uint8Array.
      profile: job.options.profile && {
        ...job.options.profile,
        logo: logo ? { data: Buffer.from(logo.data) } : null,
      },
    });
    parentPort?.postMessage({ ok: true, value: new Uint8Array(pdf) });
  } catch (err) {
    parentPort?.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
