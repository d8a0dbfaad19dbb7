import { z } from "@/lib/zod";

/** The e-invoice formats the API answers (docs/decisions.md, E-invoices). */
export const EINVOICE_FORMATS = ["cii", "xrechnung"] as const;
export type EInvoiceFormat = (typeof EINVOICE_FORMATS)[number];

/** `?format=` of GET /api/invoices/:id/einvoice and GET /api/credit-notes/:id/einvoice. */
export const eInvoiceQuerySchema = z
  .object({
    format: z
      .enum(EINVOICE_FORMATS, { error: "format must be cii or xrechnung" })
      .default("cii")
      .describe(
        "`cii`: the UN/CEFACT CII D16B XML, EN 16931 profile (what the Factur-X PDF embeds); `xrechnung`: the same with the XRechnung CIUS (buyer reference, seller contact, electronic addresses)",
      ),
  })
  .strict();
