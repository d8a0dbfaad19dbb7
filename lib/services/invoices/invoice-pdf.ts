import { createHash } from "node:crypto";
import type { DbOrTx } from "@/db/client";
import { type Config, paymentPageUrl } from "@/lib/config";
import { getProfile, pdfProfileOf } from "../profile/profile";
import { type EInvoiceInvoice, facturXXml } from "./einvoice";
import { type PdfJob, pdfRenderer } from "./pdf-pool";
import { type InvoicePdfData, PDF_FIELDS, PDF_PAYMENT_FIELDS, type PdfPayment } from "./pdf-render";

export {
  type InvoicePdfData,
  type InvoicePdfOptions,
  PDF_FIELDS,
  renderInvoicePdf,
} from "./pdf-render";

/**
 * Each invoice's last PDF, kept while nothing it shows changes (docs/decisions.md, Limits):
 * its key is a hash of everything drawn (the invoice's PDF fields, line items and payments, the
 * payment link, the profile's lines and logo), so an edit, a payment, a status change or a new logo
 * draws it again, and asking again answers the same bytes. At most `maxBytes` in all, the
 * least recently used dropped first.
 */
export class PdfCache {
  private readonly entries = new Map<string, { version: string; pdf: Buffer }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(id: string, version: string): Buffer | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.version !== version) return undefined;
    // Most recently used last.
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.pdf;
  }

  set(id: string, version: string, pdf: Buffer): void {
    this.drop(id);
    if (pdf.length > this.maxBytes) return;
    this.entries.set(id, { version, pdf });
    this.bytes += pdf.length;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  size() {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private drop(id: string) {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.pdf.length;
  }
}

/** 16 MB of PDFs (an invoice's is tens of kilobytes) per process. */
const PDF_CACHE_BYTES = 16 * 1024 * 1024;

type PdfState = { cache: PdfCache; drawing: Map<string, Promise<Buffer>> };
const STATE = Symbol.for("stellar-invoicing.pdf-cache");

/** One cache per process, whichever bundle's copy of this module asks (see pdf-pool.ts). */
function pdfState(): PdfState {
  const g = globalThis as { [STATE]?: PdfState };
  g[STATE] ??= { cache: new PdfCache(PDF_CACHE_BYTES), drawing: new Map() };
  return g[STATE];
}

/** What the PDF is drawn from: the fields it shows, nothing else of the row. */
function pdfData(invoice: InvoicePdfData): InvoicePdfData {
  const data = Object.fromEntries(PDF_FIELDS.map((field) => [field, invoice[field]]));
  return {
    ...(data as Pick<InvoicePdfData, (typeof PDF_FIELDS)[number]>),
    priceCurrency: invoice.priceCurrency ?? null,
    // What is left to pay is drawn from it, so it is part of the cache key too.
    amountPaid: invoice.amountPaid ?? "0",
    // Credit notes lower what is due (docs/decisions.md, Credit notes); absent when none.
    ...(invoice.amountCredited && invoice.amountCredited !== "0.0000000"
      ? { amountCredited: invoice.amountCredited }
      : {}),
    // Stored only with line taxes (docs/decisions.md, Tax per line).
    taxBreakdown: invoice.taxBreakdown ?? null,
    // The rate fixed at send: what the VAT in taxCurrency is drawn from.
    taxExchangeRate: invoice.taxExchangeRate ?? null,
    taxRateSource: invoice.taxRateSource ?? null,
    taxRateAt: invoice.taxRateAt ?? null,
    lineItems: invoice.lineItems.map(({ description, quantity, rate, amount, taxRate }) => ({
      description,
      quantity,
      rate,
      amount,
      taxRate: taxRate ?? null,
    })),
    // The payments it lists are part of what it shows, so of its cache key: a second payment
    // draws it again.
    payments: (invoice.payments ?? []).map(
      (p) => Object.fromEntries(PDF_PAYMENT_FIELDS.map((field) => [field, p[field]])) as PdfPayment,
    ),
  };
}

/** A hash of everything the job draws (the logo by its own hash). */
export function pdfVersion(job: PdfJob): string {
  const logo = job.options.profile?.logo;
  const logoHash = logo ? createHash("sha256").update(logo.data).digest("hex") : null;
  const drawn = {
    invoice: job.invoice,
    paymentLink: job.options.paymentLink,
    compress: job.options.compress ?? true,
    lines: job.options.profile?.lines ?? null,
    logo: logoHash,
    // The embedded e-invoice (Factur-X): what it says depends on the profile's tax id, address
    // and phone and on fields the PDF does not draw, so the XML itself is part of the key.
    eInvoice: job.options.eInvoiceXml
      ? createHash("sha256").update(job.options.eInvoiceXml).digest("hex")
      : null,
  };
  return createHash("sha256").update(JSON.stringify(drawn)).digest("hex");
}

/**
 * The invoice's PDF as the freelancer and the client get it (GET /api/invoices/:id/pdf, the
 * checkout's documents and the invoice email's attachment): the payment page link and the
 * profile's logo, address and tax id; a Factur-X PDF/A-3b with the EN 16931 XML embedded when
 * the invoice can become an e-invoice (lib/services/invoices/einvoice.ts). From the cache while nothing drawn has changed; else drawn by a worker thread
 * (pdf-pool.ts), once for any number of callers asking at the same time.
 */
export async function invoicePdf(
  db: DbOrTx,
  config: Pick<Config, "appUrl" | "issuers">,
  invoice: InvoicePdfData & EInvoiceInvoice & { id: string; freelancerWallet: string },
): Promise<Buffer> {
  const profile = await getProfile(db, invoice.freelancerWallet);
  const job: PdfJob = {
    invoice: pdfData(invoice),
    options: {
      paymentLink: paymentPageUrl(config.appUrl, invoice.id),
      profile: pdfProfileOf(profile, invoice.language),
      eInvoiceXml: facturXXml(config, invoice, profile),
    },
  };
  const version = pdfVersion(job);
  const { cache, drawing } = pdfState();
  const cached = cache.get(invoice.id, version);
  if (cached) return cached;
  const key = `${invoice.id} ${version}`;
  let pending = drawing.get(key);
  if (!pending) {
    pending = pdfRenderer()
      .render(job)
      .then((pdf) => {
        cache.set(invoice.id, version, pdf);
        return pdf;
      })
      .finally(() => drawing.delete(key));
    drawing.set(key, pending);
  }
  return pending;
}
