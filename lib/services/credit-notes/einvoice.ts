import type { Config } from "@/lib/config";
import { buildCii, creditNoteInputOf, type EInvoiceInput, eInvoiceProblems } from "@/lib/einvoice";
import { eInvoiceLineOf } from "@/lib/einvoice/from-invoice";
import type { AuthedContext } from "../context";
import {
  type EInvoiceFormat,
  type EInvoiceInvoice,
  eInvoiceRefusal,
  invoiceEInvoiceInput,
  PROFILE_OF,
} from "../invoices/einvoice";
import { getOwnerInvoice } from "../invoices/view-invoice";
import { getProfile, type ProfileRow } from "../profile/profile";
import { type CreditNoteRow, getCreditNote } from "./credit-notes";

// A credit note's e-invoice (docs/decisions.md, E-invoices and Credit notes): the CII XML of
// type 381 made from its invoice's (same parties, currency, tax currency and rate fixed at send)
// with its own number, date, lines and amounts, naming the invoice it corrects (BT-25, BT-26).

/** The credit note's e-invoice input: its invoice's, with the credit note's figures. */
export function creditNoteEInvoiceInput(
  config: Pick<Config, "appUrl" | "issuers">,
  invoice: EInvoiceInvoice,
  profile: ProfileRow | null,
  note: CreditNoteRow,
): EInvoiceInput {
  const of = invoiceEInvoiceInput(config, invoice, profile);
  return creditNoteInputOf(of, {
    number: note.number,
    issueDate: note.createdAt.toISOString().slice(0, 10),
    reason: note.reason,
    // Each at the rate and category it is credited at, by the invoice's own line rule.
    lines: note.lines.map((l) => eInvoiceLineOf(l, invoice.taxRate)),
    subtotal: note.subtotal,
    discount: note.discount,
    taxAmount: note.taxAmount,
    total: note.total,
    breakdown: note.taxBreakdown,
    taxPerLine: of.taxPerLine,
  });
}

/**
 * The EN 16931 XML the credit note's Factur-X PDF embeds, or null when it cannot become an
 * e-invoice (its PDF then stays a plain PDF, as an invoice's does).
 */
export function creditNoteFacturXXml(
  config: Pick<Config, "appUrl" | "issuers">,
  invoice: EInvoiceInvoice,
  profile: ProfileRow | null,
  note: CreditNoteRow,
): string | null {
  const input = creditNoteEInvoiceInput(config, invoice, profile, note);
  if (eInvoiceProblems(input, "en16931").length > 0) return null;
  try {
    return buildCii(input, "en16931");
  } catch {
    return null;
  }
}

/** The owner's credit note, its invoice as the owner sees it and the seller's profile. */
export async function creditNoteSources(ctx: AuthedContext, id: string) {
  const { note } = await getCreditNote(ctx, id);
  const [invoice, profile] = await Promise.all([
    getOwnerInvoice(ctx, note.invoiceId),
    getProfile(ctx.db, ctx.wallet),
  ]);
  return { note, invoice, profile };
}

/**
 * GET /api/credit-notes/:id/einvoice: the owner's credit note as CII XML (type 381) in the
 * chosen format, with its file name; 400 naming each missing field, as an invoice's.
 */
export async function creditNoteEInvoice(
  ctx: AuthedContext,
  id: string,
  format: EInvoiceFormat,
): Promise<{ xml: string; filename: string }> {
  const { note, invoice, profile } = await creditNoteSources(ctx, id);
  const input = creditNoteEInvoiceInput(ctx.config, invoice, profile, note);
  const problems = eInvoiceProblems(input, PROFILE_OF[format]);
  if (problems.length > 0) throw eInvoiceRefusal(format, problems);
  return {
    xml: buildCii(input, PROFILE_OF[format]),
    filename: `${note.number}${format === "xrechnung" ? "-xrechnung" : ""}.xml`,
  };
}
