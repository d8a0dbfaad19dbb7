import { type Config, paymentPageUrl } from "@/lib/config";
import { ValidationError } from "@/lib/domain/errors";
import {
  buildCii,
  type EInvoiceInput,
  type EInvoiceProblem,
  type EInvoiceProfile,
  type EInvoiceSource,
  eInvoiceInputOf,
  eInvoiceProblems,
} from "@/lib/einvoice";
import type { Language } from "@/lib/i18n";
import type { EInvoiceFormat } from "@/lib/schemas/einvoice";
import { assetFor } from "@/lib/stellar/assets";
import { NETWORK_PASSPHRASES } from "@/lib/stellar/networks";
import type { AuthedContext } from "../context";
import { getProfile, type ProfileRow } from "../profile/profile";
import { getOwnerInvoice } from "./view-invoice";

// An invoice's e-invoice (docs/decisions.md, E-invoices): its CII XML, EN 16931 or XRechnung,
// made from the invoice as the owner sees it and the seller's profile as it is now (like the
// PDF). GET /api/invoices/:id/einvoice answers it; the invoice PDF embeds the EN 16931 one
// (Factur-X) whenever the invoice can become an e-invoice.

export { EINVOICE_FORMATS, type EInvoiceFormat } from "@/lib/schemas/einvoice";

export const PROFILE_OF: Record<EInvoiceFormat, EInvoiceProfile> = {
  cii: "en16931",
  xrechnung: "xrechnung",
};
const FORMAT_NAMES: Record<EInvoiceFormat, string> = { cii: "CII", xrechnung: "XRechnung" };

/** What an e-invoice is made from: the owner view's fields and the buyer reference. */
export type EInvoiceInvoice = EInvoiceSource & {
  buyerReference: string | null;
  /** The invoice's language: the texts the e-invoice adds are written in it. */
  language?: Language;
};

/** The invoice's e-invoice input with the seller's profile (or none). */
export function invoiceEInvoiceInput(
  config: Pick<Config, "appUrl" | "issuers">,
  invoice: EInvoiceInvoice,
  profile: ProfileRow | null,
): EInvoiceInput {
  const network = invoice.networkPassphrase === NETWORK_PASSPHRASES.mainnet ? "mainnet" : "testnet";
  return eInvoiceInputOf(invoice, profile, {
    payLink: paymentPageUrl(config.appUrl, invoice.id),
    issuer: assetFor(config, network, invoice.currency).issuer,
    buyerReference: invoice.buyerReference,
    language: invoice.language,
  });
}

/**
 * The EN 16931 CII XML a Factur-X PDF embeds, or null when the invoice cannot become an
 * e-invoice (a draft, no seller address or tax id...): its PDF then stays a plain PDF.
 */
export function facturXXml(
  config: Pick<Config, "appUrl" | "issuers">,
  invoice: EInvoiceInvoice,
  profile: ProfileRow | null,
): string | null {
  const input = invoiceEInvoiceInput(config, invoice, profile);
  if (eInvoiceProblems(input, "en16931").length > 0) return null;
  try {
    return buildCii(input, "en16931");
  } catch {
    // buildCii refuses only what eInvoiceProblems lists; should they ever disagree, the client
    // still gets the invoice PDF (the e-invoice endpoint answers the reason).
    return null;
  }
}

/** `This invoice cannot become an e-invoice (XRechnung) yet: add buyerReference, profile.phone` */
export function eInvoiceRefusal(format: EInvoiceFormat, problems: EInvoiceProblem[]) {
  const fields = problems.map((p) => p.field).join(", ");
  return new ValidationError(
    `This invoice cannot become an e-invoice (${FORMAT_NAMES[format]}) yet: add ${fields}`,
    Object.fromEntries(problems.map((p) => [p.field, p.message])),
  );
}

/**
 * GET /api/invoices/:id/einvoice: the owner's invoice as CII XML in the chosen format, with its
 * file name; 400 naming each missing field (`details`) when it cannot become one. A draft is
 * refused (`issueDate`): its number and amounts are not final until it is sent.
 */
export async function invoiceEInvoice(
  ctx: AuthedContext,
  id: string,
  format: EInvoiceFormat,
): Promise<{ xml: string; filename: string }> {
  const invoice = await getOwnerInvoice(ctx, id);
  const input = invoiceEInvoiceInput(ctx.config, invoice, await getProfile(ctx.db, ctx.wallet));
  const problems = eInvoiceProblems(input, PROFILE_OF[format]);
  if (problems.length > 0) throw eInvoiceRefusal(format, problems);
  return {
    xml: buildCii(input, PROFILE_OF[format]),
    filename: `${invoice.invoiceNumber}${format === "xrechnung" ? "-xrechnung" : ""}.xml`,
  };
}
